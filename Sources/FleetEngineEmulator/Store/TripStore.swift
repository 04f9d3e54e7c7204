import FleetEngineCodec
import FleetEngineStatus
import Synchronization

/// The emulator's trips, by name, with their part versions; in memory, and in a journal on disk
/// when the emulator has a data folder.
///
/// Every read of a moving trip (one with a ``TripMotion``) first brings it to the current time, so
/// a trip is always as its motion says it is now, and versions change exactly when parts do.
final class TripStore: Sendable {
    struct Record: Sendable {
        /// The trip, with its version fields stamped.
        var trip: Trip
        var versions: TripVersions
        /// When the trip last changed, for `SearchTripsRequest.minimum_staleness`.
        var updated: Timestamp
        /// What moves the trip, and when (in the time source's time) it started moving.
        var motion: (any TripMotion)?
        var motionStart: Timestamp
        var motionSpeed: Double
        /// The motion's instant the trip was last built for, so a read within the same step of a
        /// stepwise motion costs a comparison rather than a rebuild.
        var motionInstant: Duration?
    }

    private struct State: Sendable {
        var records: [String: Record] = [:]
        var billingReports: [ReportBillableTripRequest] = []
    }

    private let state: Mutex<State>
    private let journal: TripJournal?
    let time: any TimeSource

    /// A store in memory only.
    init(time: any TimeSource) {
        self.state = Mutex(State())
        self.journal = nil
        self.time = time
    }

    /// A store kept in `directory`'s journal, with what the journal already holds.
    ///
    /// - Parameter compactionFloor: the journal's length below which it is not compacted while
    ///   the store is in use (``TripJournal/compactionFloor``).
    init(
        time: any TimeSource, directory: String, compactionFloor: Int = TripJournal.defaultCompactionFloor
    ) throws(EmulatorError) {
        let (journal, entries) = try TripJournal.open(directory: directory, compactionFloor: compactionFloor)
        var initial = State()
        for entry in entries {
            switch entry {
            case .put(let trip, let updated):
                var versions = TripVersions()
                versions.currentRouteSegment = trip.currentRouteSegmentVersion
                versions.currentRouteSegmentTraffic = trip.currentRouteSegmentTrafficVersion
                versions.remainingWaypoints = trip.remainingWaypointsVersion
                versions.remainingWaypointsRoute = trip.remainingWaypointsRouteVersion
                versions.intermediateDestinations = trip.intermediateDestinationsVersion
                initial.records[trip.name] = Record(
                    trip: trip, versions: versions, updated: updated ?? time.now(), motion: nil,
                    motionStart: Timestamp(),
                    motionSpeed: 1)
            case .delete(let name):
                initial.records[name] = nil
            case .billing(let report):
                initial.billingReports.append(report)
            }
        }
        self.state = Mutex(initial)
        self.journal = journal
        self.time = time
    }

    /// Adds a trip that does not exist yet.
    ///
    /// - Throws: ALREADY_EXISTS when the name is taken; a storage failure as INTERNAL.
    func create(_ trip: Trip, motion: (any TripMotion)? = nil, speed: Double = 1) throws(FleetEngineError) -> Trip {
        let now = time.now()
        return try state.withLock { state throws(FleetEngineError) -> Trip in
            guard state.records[trip.name] == nil else {
                throw EmulatorErrors.withReason(
                    .alreadyExists, reason: "TRIP_ALREADY_EXISTS", "trip \(trip.name) already exists",
                    metadata: ["trip": trip.name])
            }
            var record = Record(
                trip: trip, versions: TripVersions(), updated: now, motion: motion, motionStart: now,
                motionSpeed: speed)
            if let motion {
                var moved = motion.trip(at: .zero)
                moved.name = trip.name
                record.trip = moved
            }
            record.versions.advance(from: nil, to: record.trip, at: now)
            record.versions.stamp(&record.trip)
            if motion == nil { try persist(.put(record.trip, updated: now)) }
            state.records[trip.name] = record
            compactJournalIfDue(state)
            return record.trip
        }
    }

    /// The trip as it is now.
    ///
    /// - Throws: NOT_FOUND when there is no such trip.
    func get(_ name: TripName) throws(FleetEngineError) -> Trip {
        let now = time.now()
        return try state.withLock { state throws(FleetEngineError) -> Trip in
            guard var record = state.records[name.description] else { throw EmulatorErrors.tripNotFound(name) }
            if record.motion != nil {
                _ = Self.move(&record, to: now)
                state.records[name.description] = record
            }
            return record.trip
        }
    }

    /// Changes a trip. The change stops its motion: from then on it is driven by updates, as a trip is
    /// once a driver app reports it.
    ///
    /// - Throws: NOT_FOUND, or what `change` throws; a storage failure as INTERNAL.
    func update(_ name: TripName, _ change: (inout Trip) throws(FleetEngineError) -> Void) throws(FleetEngineError)
        -> Trip
    {
        let now = time.now()
        return try state.withLock { state throws(FleetEngineError) -> Trip in
            guard var record = state.records[name.description] else { throw EmulatorErrors.tripNotFound(name) }
            _ = Self.move(&record, to: now)
            let previous = record.trip
            var trip = previous
            try change(&trip)
            trip.name = previous.name
            record.motion = nil
            record.versions.advance(from: previous, to: trip, at: now)
            record.versions.stamp(&trip)
            record.trip = trip
            if trip != previous { record.updated = now }
            try persist(.put(trip, updated: record.updated))
            state.records[name.description] = record
            compactJournalIfDue(state)
            return trip
        }
    }

    /// Removes a trip.
    ///
    /// - Throws: NOT_FOUND, or what `check` throws for the trip as it is now.
    func delete(_ name: TripName, check: (Trip) throws(FleetEngineError) -> Void) throws(FleetEngineError) {
        let now = time.now()
        try state.withLock { state throws(FleetEngineError) in
            guard var record = state.records[name.description] else { throw EmulatorErrors.tripNotFound(name) }
            _ = Self.move(&record, to: now)
            try check(record.trip)
            try persist(.delete(name.description))
            state.records[name.description] = nil
            compactJournalIfDue(state)
        }
    }

    /// Records a billing report for an existing trip.
    func reportBillable(_ report: ReportBillableTripRequest, name: TripName) throws(FleetEngineError) {
        try state.withLock { state throws(FleetEngineError) in
            guard state.records[name.description] != nil else { throw EmulatorErrors.tripNotFound(name) }
            try persist(.billing(report))
            state.billingReports.append(report)
            compactJournalIfDue(state)
        }
    }

    /// Every trip of a provider, as it is now, ordered by name, that `include` accepts; with the
    /// time each last changed.
    func trips(providerID: String, where include: (Trip, Timestamp) -> Bool) -> [Trip] {
        let now = time.now()
        let prefix = "providers/\(providerID)/trips/"
        return state.withLock { state in
            var found: [Trip] = []
            for name in state.records.keys.sorted() where name.utf8.starts(with: prefix.utf8) {
                guard var record = state.records[name] else { continue }
                if record.motion != nil {
                    _ = Self.move(&record, to: now)
                    state.records[name] = record
                }
                if include(record.trip, record.updated) { found.append(record.trip) }
            }
            return found
        }
    }

    /// The billing reports received, in order.
    var billingReports: [ReportBillableTripRequest] {
        state.withLock { $0.billingReports }
    }

    /// Brings a moving trip to `now`; whether anything changed.
    private static func move(_ record: inout Record, to now: Timestamp) -> Bool {
        guard let motion = record.motion else { return false }
        let elapsed = max(now.duration(since: record.motionStart) * record.motionSpeed, .zero)
        let instant = motion.snapshotInstant(at: elapsed)
        if instant == record.motionInstant { return false }
        record.motionInstant = instant
        var trip = motion.trip(at: elapsed)
        trip.name = record.trip.name
        var previous = record.trip
        Self.clearVersions(&previous)
        guard trip != previous else { return false }
        record.versions.advance(from: previous, to: trip, at: now)
        record.versions.stamp(&trip)
        record.trip = trip
        record.updated = now
        return true
    }

    private static func clearVersions(_ trip: inout Trip) {
        TripVersions().stamp(&trip)
    }

    /// Rewrites the journal as `state` when it is due (``TripJournal/isDueForCompaction``), under
    /// the lock, after a change is in `state`: the trips that do not move (a moving trip is never in
    /// the journal; one that was changed stopped moving) and the billing reports. A failure is not
    /// the call's: its change is in the journal, which is left whole and appended to as before, and
    /// the next attempt waits until the journal has doubled again.
    private func compactJournalIfDue(_ state: borrowing State) {
        guard let journal, journal.isDueForCompaction else { return }
        var entries: [TripJournal.Entry] = []
        for name in state.records.keys.sorted() {
            guard let record = state.records[name], record.motion == nil else { continue }
            entries.append(.put(record.trip, updated: record.updated))
        }
        entries += state.billingReports.map(TripJournal.Entry.billing)
        try? journal.compact(entries)
    }

    /// Appends `entry` to the journal, if there is one. Every write calls it under the lock and
    /// before it changes `state`, so a refused write (which the journal has cut off again) leaves
    /// the store as it was, and memory never holds what the journal does not.
    private func persist(_ entry: TripJournal.Entry) throws(FleetEngineError) {
        guard let journal else { return }
        do {
            try journal.append(entry)
        } catch {
            throw FleetEngineError(
                code: .internalError, message: "the emulator could not store the change: \(error)", cause: error)
        }
    }
}
