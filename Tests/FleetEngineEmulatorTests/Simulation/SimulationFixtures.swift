import FleetEngineCodec

@testable import FleetEngineEmulator

/// Hand-built plans whose times and distances can be worked out on paper.
///
/// Every point lies on the meridian 122° W, 0.009° of latitude apart, so each leg is
/// `6,371,008.8 m × 0.009 × π / 180 = 1,000.754 m` of straight road (split into 7 edges of 142.965 m),
/// driven at a constant 10 m/s: 100.075 s, reported on the next whole second.
enum SimulationFixtures {
    static let start: Timestamp = {
        var stamp = Timestamp()
        stamp.seconds = 1_700_000_000
        return stamp
    }()

    static func point(_ latitude: Double, _ longitude: Double = -122) -> LatLng {
        SphericalGeometry.point(latitude: latitude, longitude: longitude)
    }

    /// Vehicle at 37.000, pickup at 37.009 (30 s wait), dropoff at 37.027 (two legs' worth, 2,001.509 m
    /// in 14 edges); dispatched after 5 s.
    ///
    /// NEW at 0, ENROUTE_TO_PICKUP at 5, ARRIVED_AT_PICKUP at 106 (5 + 100.075), ENROUTE_TO_DROPOFF
    /// at 136, COMPLETE at 337 (136 + 200.151).
    static func direct(
        reroutes: [PlannedReroute] = [],
        traffic: [PlannedTraffic] = []
    ) -> SimulationPlan {
        SimulationPlan(
            tripName: "providers/test-project/trips/direct",
            vehicleID: "vehicle-1",
            numberOfPassengers: 2,
            vehicleStart: point(37),
            pickup: SimulationStop(point: point(37.009), wait: .seconds(30)),
            dropoff: point(37.027),
            dispatchDelay: .seconds(5),
            speeds: 10...10,
            reroutes: reroutes,
            traffic: traffic
        )
    }

    /// As ``direct(reroutes:traffic:)`` but with two intermediate destinations on the way, at 37.018
    /// (20 s wait) and 37.027 (10 s wait), and the dropoff at 37.036.
    static func withIntermediateDestinations() -> SimulationPlan {
        SimulationPlan(
            tripName: "providers/test-project/trips/multi",
            vehicleID: "vehicle-2",
            vehicleStart: point(37),
            pickup: SimulationStop(point: point(37.009), wait: .seconds(30)),
            intermediateDestinations: [
                SimulationStop(point: point(37.018), wait: .seconds(20)),
                SimulationStop(point: point(37.027), wait: .seconds(10)),
            ],
            dropoff: point(37.036),
            dispatchDelay: .seconds(5),
            speeds: 10...10
        )
    }

    static func simulation(_ plan: SimulationPlan, seed: UInt64 = 1) throws -> TripSimulation {
        try TripSimulation(plan: plan, seed: seed, start: start)
    }

    static func timestamp(_ elapsedSeconds: Int64) -> Timestamp {
        var stamp = start
        stamp.seconds += elapsedSeconds
        return stamp
    }

    static func duration(_ seconds: Int64) -> ProtobufDuration {
        var duration = ProtobufDuration()
        duration.seconds = seconds
        return duration
    }
}
