import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

/// One seeded simulated trip in an emulator on a manual clock, stepped a second at a time over its
/// whole life.
struct MovingTripRun {
    /// The seed of every run; six trips of it cover intermediate destinations, a reroute and traffic.
    static let seed: UInt64 = 0x00C0_FFEE
    static let tripCount = 6

    let clock: ManualTimeSource
    let emulator: FleetEngineEmulator
    let simulation: TripSimulation

    /// The `index`-th trip of ``TripSimulation/seeded(providerID:count:seed:start:)``, added as a
    /// moving trip at the clock's start.
    init(index: Int) throws {
        clock = ManualTimeSource(start: ServiceHarness.time(0))
        emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        let all = TripSimulation.seeded(
            providerID: ServiceFixtures.provider, count: Self.tripCount, seed: Self.seed, start: clock.now())
        simulation = all[index]
        try emulator.addMovingTrip(named: simulation.plan.tripName, motion: simulation)
    }

    var name: String { simulation.plan.tripName }

    /// How many one-second steps cover the trip: its duration and two seconds after it completes.
    var stepCount: Int { Int(simulation.duration.components.seconds) + 2 }

    /// GetTrip for this trip, with the request adjusted by `configure`.
    func fetch(_ configure: (inout GetTripRequest) -> Void = { _ in }) throws(FleetEngineError) -> Trip {
        var request = GetTripRequest()
        request.name = name
        configure(&request)
        return try emulator.service.getTrip(request)
    }

    /// The trip whole, in both route forms: the lat/lng list fetch with the encoded fetch's segment.
    func fullFetch() throws -> Trip {
        var trip = try fetch()
        let encoded = try fetch { $0.routeFormatType = .encodedPolylineType }
        #expect(encoded.route == [])
        var listWithoutRoute = trip
        listWithoutRoute.route = []
        var encodedWithoutSegment = encoded
        encodedWithoutSegment.currentRouteSegment = ""
        #expect(listWithoutRoute == encodedWithoutSegment, "the two route forms differ beyond the route")
        trip.currentRouteSegment = encoded.currentRouteSegment
        return trip
    }
}
