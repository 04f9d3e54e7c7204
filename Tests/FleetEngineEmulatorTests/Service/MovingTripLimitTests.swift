import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

/// What the emulator accepts when it is asked to seed or add trips that move by themselves.
@Suite("Limits on moving trips")
struct MovingTripLimitTests {
    /// An emulator on a clock that only moves when a test moves it.
    private static func emulator() throws -> (FleetEngineEmulator, ManualTimeSource) {
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth), time: clock)
        return (emulator, clock)
    }

    @Test(
        "a speed that is not above 0 and at most a million times the clock is refused with INVALID_ARGUMENT",
        arguments: [Double.infinity, .nan, 0, -1, 1e30])
    func refusesSpeed(_ speed: Double) throws {
        let (emulator, clock) = try Self.emulator()
        let error = try #require(
            fleetEngineError {
                try emulator.simulate(providerID: ServiceFixtures.provider, count: 1, seed: 7, speed: speed)
            }
        )
        #expect(error.code == .invalidArgument)
        let simulation = try #require(
            TripSimulation.seeded(providerID: ServiceFixtures.provider, count: 1, seed: 7, start: clock.now()).first)
        let added = fleetEngineError {
            try emulator.addMovingTrip(named: simulation.plan.tripName, motion: simulation, speed: speed)
        }
        #expect(added?.code == .invalidArgument)
        // Nothing was added: reading the trip, which multiplies the clock by the speed, finds none.
        clock.advance(by: .seconds(60))
        #expect(
            fleetEngineError { try emulator.service.getTrip(Self.request(simulation.plan.tripName)) }?.code == .notFound
        )
    }

    @Test("the fastest speed allowed still moves a trip along, a year in half a minute")
    func fastestSpeed() throws {
        let (emulator, clock) = try Self.emulator()
        let name = try #require(
            try emulator.simulate(
                providerID: ServiceFixtures.provider, count: 1, seed: 7, speed: 1_000_000
            ).first)
        clock.advance(by: .seconds(32))
        #expect(try emulator.service.getTrip(Self.request(name)).tripStatus == .complete)
    }

    @Test(
        "a count of trips below 0 or above 10,000 is refused with INVALID_ARGUMENT", arguments: [-1, 10_001, Int.max])
    func refusesCount(_ count: Int) throws {
        let (emulator, _) = try Self.emulator()
        let error = fleetEngineError {
            try emulator.simulate(providerID: ServiceFixtures.provider, count: count, seed: 7)
        }
        #expect(error?.code == .invalidArgument)
        #expect(try emulator.simulate(providerID: ServiceFixtures.provider, count: 0, seed: 7) == [])
    }

    private static func request(_ name: String) -> GetTripRequest {
        var request = GetTripRequest()
        request.name = name
        return request
    }
}
