import FleetEngineCodec
import Testing

@testable import FleetEngineEmulator

/// Seeded trips in the preset cities, checked second by second against the rules every simulated trip
/// keeps.
@Suite("Seeded trip simulations")
struct SeededTripSimulationTests {
    static let trips = TripSimulation.seeded(
        providerID: "test-project", count: 8, seed: 2_024, start: SimulationFixtures.start)

    @Test("the same seed gives the same trips; another seed, others")
    func determinism() {
        let again = TripSimulation.seeded(
            providerID: "test-project", count: 8, seed: 2_024, start: SimulationFixtures.start)
        #expect(again == Self.trips)
        for (trip, copy) in zip(Self.trips, again) {
            for second in stride(from: 0, through: Int(trip.duration.components.seconds), by: 97) {
                #expect(trip.trip(at: .seconds(second)) == copy.trip(at: .seconds(second)))
            }
        }
        let other = TripSimulation.seeded(
            providerID: "test-project", count: 8, seed: 2_025, start: SimulationFixtures.start)
        #expect(other.map { $0.trip(at: .zero) } != Self.trips.map { $0.trip(at: .zero) })
    }

    @Test("seeded trips are named, varied, and include intermediate destinations and reroutes")
    func variety() {
        #expect(Self.trips.map(\.plan.tripName) == (0..<8).map { "providers/test-project/trips/sim-7e8-\($0)" })
        #expect(Self.trips.map(\.plan.vehicleID) == (0..<8).map { "vehicle-7e8-\($0)" })
        #expect(Self.trips.filter { !$0.plan.intermediateDestinations.isEmpty }.count >= 3)
        #expect(Self.trips.filter { $0.events.contains { event in event.kind.isReroute } }.count >= 2)
        #expect(Self.trips.filter { $0.events.contains { event in event.kind.isTrafficAppearance } }.count >= 2)
        for simulation in Self.trips {
            let centre = SimulationCity.all.map(\.streets.centre).min {
                SphericalGeometry.distance(from: $0, to: simulation.plan.pickup.point)
                    < SphericalGeometry.distance(from: $1, to: simulation.plan.pickup.point)
            }
            #expect(centre.map { SphericalGeometry.distance(from: $0, to: simulation.plan.pickup.point) } ?? 0 < 6_000)
        }
    }

    @Test("every second of every trip keeps the rules", arguments: 0..<8)
    func rules(_ index: Int) throws {
        let simulation = Self.trips[index]
        var checker = TripRuleChecker(simulation: simulation)
        for second in 0...(simulation.duration.components.seconds + 2) {
            checker.check(simulation.trip(at: .seconds(second)), at: .seconds(second))
        }
        #expect(checker.statuses == simulation.events.compactMap(\.kind.status))
        #expect(checker.refreshes == checker.expectedRefreshes)
    }

    @Test("street routes have a vertex a block apart and end exactly at the stops")
    func streetPaths() {
        for simulation in Self.trips {
            let trip = simulation.trip(at: .zero)
            var previousEnd = simulation.plan.vehicleStart
            for waypoint in trip.remainingWaypoints {
                let path = waypoint.pathToWaypoint
                #expect(path.first == previousEnd)
                #expect(path.last == waypoint.location?.point)
                for (start, end) in zip(path, path.dropFirst()) {
                    // A diagonal across New York's 190 m by 80 m blocks is the longest edge.
                    #expect(SphericalGeometry.distance(from: start, to: end) < 210)
                }
                previousEnd = waypoint.location?.point ?? previousEnd
            }
        }
    }
}

extension SimulationEvent.Kind {
    fileprivate var isReroute: Bool {
        if case .rerouted = self { return true }
        return false
    }

    fileprivate var isTrafficAppearance: Bool {
        if case .trafficAppeared = self { return true }
        return false
    }

    fileprivate var status: TripStatus? {
        if case .statusChanged(let status, _) = self { return status }
        return nil
    }
}
