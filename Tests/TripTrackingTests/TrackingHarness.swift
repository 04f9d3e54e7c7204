import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Logging
import Synchronization
import Testing
import TripTracking

/// An emulator on a manual clock with seeded simulated trips, our client on loopback, and a trip
/// service whose models refresh only when a test asks (`await model.refresh()`): the interval is
/// an hour (and so is the wait after a server failure), so each step of a test is one clock move
/// and one refresh.
struct TrackingHarness: Sendable {
    static let provider = "tracking-tests"
    static let seed: UInt64 = 0x00C0_FFEE
    static let start = Timestamp(seconds: 1_700_000_000, nanos: 0)

    let clock: ManualTimeSource
    let emulator: FleetEngineEmulator
    let client: FleetEngineClient
    let service: TripService
    /// The simulations, in the order `emulator.simulate` seeded them.
    let simulations: [TripSimulation]

    var names: [String] { simulations.map(\.plan.tripName) }

    /// The trip as a full fetch returns it now (list route, no versions held), straight from the
    /// emulator's service.
    func fullFetch(_ name: String) throws -> Trip {
        var request = GetTripRequest()
        request.name = name
        return try emulator.service.getTrip(request)
    }

    /// Adds a trip that is COMPLETE at its first fetch, so that following it ends at once.
    func addCompletedTrip(named name: String) throws {
        try emulator.addMovingTrip(
            named: name,
            motion: ScriptedMotion { _ in
                var trip = Trip()
                trip.tripType = .exclusive
                trip.tripStatus = .complete
                return trip
            })
    }
}

/// Runs `body` with `count` seeded simulated trips.
///
/// The client's `deadline` is long: the whole suite runs at once on two cores, and a call waits
/// its turn behind every other test's work, so one that takes a millisecond alone may take over
/// the client's default 15 s. The tests are about behaviour, not speed.
func withTracking<Result: Sendable>(
    count: Int = 6,
    faults: FaultPlan = FaultPlan(),
    retryPolicy: RetryPolicy = .none,
    interval: Duration = .seconds(3600),
    serverFailureRetryDelay: Duration = .seconds(3600),
    deadline: Duration = LoopbackClient.callDeadline,
    accessPolicy: (ManualTimeSource) throws -> AccessPolicy = { _ in .noAuth },
    tokenProvider: any TokenProvider = NoTokenProvider(),
    start: Timestamp = TrackingHarness.start,
    refreshExecutor: (any TaskExecutor)? = nil,
    requestBudget: RequestBudget = .unlimited,
    logger: Logger = Logger(label: "trip-service", factory: { _ in SwiftLogNoOpLogHandler() }),
    _ body: @Sendable (TrackingHarness) async throws -> Result
) async throws -> Result {
    let clock = ManualTimeSource(start: start)
    var configuration = EmulatorConfiguration(accessPolicy: try accessPolicy(clock))
    configuration.faults = faults
    return try await withEmulatorAndClient(
        configuration, time: clock, tokenProvider: tokenProvider,
        configure: {
            $0.retryPolicy = retryPolicy
            $0.defaultDeadline = deadline
        }
    ) { emulator, client in
        try emulator.simulate(providerID: TrackingHarness.provider, count: count, seed: TrackingHarness.seed)
        let simulations = TripSimulation.seeded(
            providerID: TrackingHarness.provider, count: count, seed: TrackingHarness.seed, start: start
        )
        let service = TripService(
            client: client, providerID: TrackingHarness.provider,
            defaultOptions: TripModelOptions(
                autoRefreshTimeInterval: interval, serverFailureRetryDelay: serverFailureRetryDelay),
            requestBudget: requestBudget, logger: logger, refreshExecutor: refreshExecutor)
        let harness = TrackingHarness(
            clock: clock, emulator: emulator, client: client, service: service, simulations: simulations)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await service.run() }
            defer { service.beginGracefulShutdown() }
            return try await body(harness)
        }
    }
}

/// A subscriber that records every callback as the event it stands for.
final class EventRecorder: TripModelSubscriber {
    private let recorded = Mutex<[TripEvent]>([])

    var events: [TripEvent] { recorded.withLock { $0 } }

    func take() -> [TripEvent] {
        recorded.withLock { events in
            defer { events = [] }
            return events
        }
    }

    private func record(_ event: TripEvent) {
        recorded.withLock { $0.append(event) }
    }

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        record(.tripUpdated(trip, fields: fields))
    }
    func tripModel(_ model: TripModel, didUpdateTripStatus status: TripStatus) { record(.tripStatus(status)) }
    func tripModel(_ model: TripModel, didUpdateActiveRouteRemainingDistance meters: Int32?) {
        record(.remainingDistance(meters))
    }
    func tripModel(_ model: TripModel, didUpdateActiveRoute route: [LatLng]?) { record(.activeRoute(route)) }
    func tripModel(_ model: TripModel, didUpdateVehicleLocation location: VehicleLocation?) {
        record(.vehicleLocation(location))
    }
    func tripModel(_ model: TripModel, didUpdatePickupLocation location: TerminalLocation?) {
        record(.pickupLocation(location))
    }
    func tripModel(_ model: TripModel, didUpdateDropoffLocation location: TerminalLocation?) {
        record(.dropoffLocation(location))
    }
    func tripModel(_ model: TripModel, didUpdatePickupETA eta: Timestamp?) { record(.pickupETA(eta)) }
    func tripModel(_ model: TripModel, didUpdateDropoffETA eta: Timestamp?) { record(.dropoffETA(eta)) }
    func tripModel(_ model: TripModel, didUpdateRemainingWaypoints waypoints: [TripWaypoint]?) {
        record(.remainingWaypoints(waypoints))
    }
    func tripModel(_ model: TripModel, didUpdateIntermediateDestinations destinations: [TerminalLocation]?) {
        record(.intermediateDestinations(destinations))
    }
    func tripModel(_ model: TripModel, didUpdateActiveRouteTraffic traffic: ConsumableTrafficPolyline?) {
        record(.activeRouteTraffic(traffic))
    }
    func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError) {
        record(.updateFailed(error))
    }
}
