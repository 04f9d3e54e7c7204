import FleetEngineCodec
import FleetEngineStatus
import GRPCCore
import Testing

@testable import FleetEngineEmulator

@Suite("Fault plans changed while the emulator runs, and faults that hit only some calls")
struct FaultPlanChangeTests {
    @Test("a plan set while running applies from the next call: failures start, then stop")
    func failuresStartAndStop() async throws {
        try await withEmulatorAndClient { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            let request = AuthorizationServerTests.get("trip-1")
            #expect(await client.failure(.getTrip, request, returning: Trip.self) == nil)

            var failing = FaultPlan()
            failing.failEvery = 1
            failing.failCode = .aborted
            try emulator.setFaultPlan(failing)
            #expect(emulator.faultPlan == failing)
            let error = await client.failure(.getTrip, request, returning: Trip.self)
            #expect(error?.code == .aborted)
            #expect(error?.message == "injected fault: call 2 fails with ABORTED (one call in 1 fails)")

            try emulator.setFaultPlan(FaultPlan())
            #expect(await client.failure(.getTrip, request, returning: Trip.self) == nil)
            #expect(emulator.callCount == 3)
        }
    }

    @Test("connection drops set while running close each connection at its Nth call")
    func dropsSetWhileRunning() async throws {
        try await withEmulatorAndClient { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            var dropping = FaultPlan()
            dropping.dropConnectionAtCall = 2
            try emulator.setFaultPlan(dropping)
            let request = AuthorizationServerTests.get("trip-1")
            #expect(await client.failure(.getTrip, request, returning: Trip.self) == nil)
            let error = await client.failure(.getTrip, request, returning: Trip.self)
            #expect(error?.code == .unavailable)
        }
    }

    @Test("delayEvery N gives the delay to calls N, 2N, 3N only; failed calls are counted but not delayed")
    func delayEveryPicksCalls() throws {
        var plan = FaultPlan()
        plan.delay = .seconds(3)
        plan.delayEvery = 2
        plan.failEvery = 3
        let injector = FaultInjector(plan: plan)
        var outcomes: [String] = []
        for _ in 1...7 {
            do throws(FleetEngineError) {
                let call = try injector.injectFailure()
                outcomes.append("\(call.number): \(call.delay)")
            } catch {
                outcomes.append("failed: \(error.code)")
            }
        }
        #expect(
            outcomes == [
                "1: 0.0 seconds", "2: 3.0 seconds", "failed: UNAVAILABLE", "4: 3.0 seconds", "5: 0.0 seconds",
                "failed: UNAVAILABLE", "7: 0.0 seconds",
            ])
    }

    @Test("GOAWAY turned on while running retires the connection already open")
    func goAwayTurnedOn() async throws {
        let connections = ConnectionCounter()
        try await withEmulatorAndClient(configureClient: { connections.install(in: &$0) }) { emulator, client in
            try FaultInjectionServerTests.seed(emulator)
            let request = AuthorizationServerTests.get("trip-1")
            let options = FaultInjectionServerTests.retryingUnavailable
            #expect(await client.failure(.getTrip, request, returning: Trip.self, options: options) == nil)
            #expect(connections.value == 1)
            var retiring = FaultPlan()
            retiring.goAwayAfter = .milliseconds(200)
            retiring.goAwayGraceTime = .seconds(1)
            try emulator.setFaultPlan(retiring)
            // Bounded: at most 500 calls 20 ms apart; the first connection is retired within about a second.
            var calls = 0
            while connections.value < 2 && calls < 500 {
                calls += 1
                #expect(try await FaultInjectionServerTests.getTripAcrossReconnects(client, request))
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(connections.value >= 2)
        }
    }

    @Test("a plan that means nothing is refused and changes nothing")
    func meaninglessPlanIsRefused() async throws {
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.faults.goAwayAfter = .seconds(30)
        let emulator = try FleetEngineEmulator(configuration: configuration)
        var meaningless = emulator.faultPlan
        meaningless.delayEvery = 0
        let refused = #expect(throws: EmulatorError.self) { try emulator.setFaultPlan(meaningless) }
        #expect(refused?.message == "the fault plan's delayEvery is 0; one call in every n waits, so n is 1 or more")
        #expect(emulator.faultPlan == configuration.faults)
    }
}
