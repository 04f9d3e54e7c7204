public import FleetEngineCodec

/// A trip that drives itself: a pure function from simulated time to the trip as Fleet Engine would
/// hold it then.
///
/// Built from a ``SimulationPlan`` and a seed, the simulation works out the whole trip up front: the
/// street paths, the motion along them, every reroute, every traffic change, every arrival. Asking
/// for the trip at any moment (``trip(at:)``), in any order, as often as wanted, gives the same
/// snapshot, so a server can serve a trip in real or accelerated time and a test can look at the
/// exact instant it cares about.
///
/// The trip's status walks `NEW`, `ENROUTE_TO_PICKUP`, `ARRIVED_AT_PICKUP`, then for each intermediate
/// destination `ENROUTE_TO_INTERMEDIATE_DESTINATION` and `ARRIVED_AT_INTERMEDIATE_DESTINATION` (with
/// `intermediate_destination_index`), then `ENROUTE_TO_DROPOFF` and `COMPLETE`. What changes when is
/// set out in ``SimulationCadence``; the moments things happen are in ``events``.
///
/// The navigator in the simulation knows the future of the route it is on: its ETA is when the vehicle
/// will be reported at the waypoint if it keeps to that route, traffic included. So ETAs stay put and
/// remaining times and distances only fall while the vehicle drives; they jump only when a waypoint is
/// reached or the route is replaced.
public struct TripSimulation: Sendable, Hashable {
    /// The plan the trip follows.
    public let plan: SimulationPlan

    /// The seed of the random choices (street paths, speeds, location accuracies).
    public let seed: UInt64

    /// The wall-clock time of elapsed zero: every timestamp in a snapshot is this plus simulated time.
    public let start: Timestamp

    /// Everything that happens, in order of time (events at the same moment in the order they happen).
    public let events: [SimulationEvent]

    let legs: [SimulatedLeg]

    /// The location interval, in nanoseconds.
    let tick: Int64

    /// The route refresh interval, in nanoseconds.
    let refreshInterval: Int64

    /// The distinct event moments, increasing: each is a route refresh.
    let eventInstants: [Int64]

    /// When the trip is complete, in nanoseconds.
    let completion: Int64

    /// A simulation of `plan`, with `seed` for its random choices, starting at `start`.
    ///
    /// - Throws: ``EmulatorError`` saying what is wrong with the plan: a point that is not on the Earth,
    ///   a speed, wait or interval out of range, a reroute or traffic on a leg the trip does not have, or
    ///   legs so many and long that the trip would last past the simulation's time limit (about 31 years).
    public init(plan: SimulationPlan, seed: UInt64, start: Timestamp) throws(EmulatorError) {
        if let problem = plan.problem {
            throw EmulatorError(.invalidSimulation, "cannot simulate trip '\(plan.tripName)': \(problem)")
        }
        self.init(validated: plan, seed: seed, start: start)
        // Instants are clamped at the limit, so a leg that ends beyond it would be reported arrived before
        // the vehicle got there, and every later leg driven in one location interval.
        if completion >= SimulationTime.limit {
            throw EmulatorError(
                .invalidSimulation,
                "cannot simulate trip '\(plan.tripName)': the trip would last \(SimulationTime.duration(SimulationTime.limit)) "
                    + "or more, beyond the time a simulation can count")
        }
    }

    /// How long the trip takes: from this moment on it is `COMPLETE` and no longer changes.
    public var duration: Duration {
        SimulationTime.duration(completion)
    }

    /// Every moment the reported route is refreshed, up to and including ``duration``: each multiple of
    /// the route refresh interval, and each event, in increasing order.
    public var routeRefreshTimes: RouteRefreshTimes {
        RouteRefreshTimes(eventInstants: eventInstants, interval: refreshInterval, completion: completion)
    }

    init(validated plan: SimulationPlan, seed: UInt64, start: Timestamp) {
        self.plan = plan
        self.seed = seed
        self.start = start
        let tick = SimulationTime.nanoseconds(plan.cadence.locationInterval)
        self.tick = tick
        refreshInterval = SimulationTime.nanoseconds(plan.cadence.routeRefreshInterval)

        let stops =
            [(plan.pickup.point, WaypointType.pickupWaypointType, plan.pickup.wait)]
            + plan.intermediateDestinations.map {
                ($0.point, WaypointType.intermediateDestinationWaypointType, $0.wait)
            }
            + [(plan.dropoff, WaypointType.dropOffWaypointType, Duration.zero)]
        var builder = TripTimelineBuilder(plan: plan, seed: seed, tick: tick)
        var legs: [SimulatedLeg] = []
        var origin = plan.vehicleStart
        var departure = max(SimulationTime.ceiling(SimulationTime.nanoseconds(plan.dispatchDelay), to: tick), tick)
        builder.record(.statusChanged(.new, intermediateDestinationIndex: 0), at: 0)
        for (index, stop) in stops.enumerated() {
            let isLast = index == stops.count - 1
            let driving = Self.status(drivingLeg: index, legCount: stops.count)
            builder.record(.statusChanged(driving.0, intermediateDestinationIndex: driving.1), at: departure)
            let wait = isLast ? 0 : max(SimulationTime.ceiling(SimulationTime.nanoseconds(stop.2), to: tick), tick)
            let leg = builder.leg(index, from: origin, to: stop.0, type: stop.1, departure: departure, wait: wait)
            legs.append(leg)
            builder.record(.waypointReached(stop.1, leg: index), at: leg.arrival)
            let arrived =
                isLast
                ? (TripStatus.complete, Self.intermediateIndex(index + 1, stops.count))
                : Self.status(arrivedAtLeg: index, legCount: stops.count)
            builder.record(.statusChanged(arrived.0, intermediateDestinationIndex: arrived.1), at: leg.arrival)
            origin = stop.0
            departure = leg.arrival + wait
        }
        self.legs = legs
        completion = legs.last?.arrival ?? 0
        events = builder.events
        eventInstants = Array(Set(builder.events.map { SimulationTime.nanoseconds($0.time) })).sorted()
    }

    /// The status, and `intermediate_destination_index`, while driving leg `index`.
    static func status(drivingLeg index: Int, legCount: Int) -> (TripStatus, Int32) {
        let status: TripStatus =
            index == 0
            ? .enrouteToPickup : index == legCount - 1 ? .enrouteToDropoff : .enrouteToIntermediateDestination
        return (status, intermediateIndex(index, legCount))
    }

    /// The status, and `intermediate_destination_index`, while standing at the waypoint of leg `index`
    /// (not the dropoff).
    static func status(arrivedAtLeg index: Int, legCount: Int) -> (TripStatus, Int32) {
        (index == 0 ? .arrivedAtPickup : .arrivedAtIntermediateDestination, intermediateIndex(index, legCount))
    }

    /// `intermediate_destination_index` while on leg `index` or at its waypoint: the intermediate
    /// destination the leg leads to; 0 before the first, and after the last it keeps the last one's,
    /// as Fleet Engine keeps a field the provider stops updating.
    static func intermediateIndex(_ index: Int, _ legCount: Int) -> Int32 {
        Int32(max(0, min(index - 1, legCount - 3)))
    }
}
