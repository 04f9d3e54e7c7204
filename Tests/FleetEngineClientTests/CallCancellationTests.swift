import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Logging
import Testing

/// `CallCancellation`: one call cancelled from outside the task that awaits it, as the trip
/// service's refresh workers cancel a refresh whose following ended. Each wait of a call is
/// cancelled at once, the call fails CANCELLED, and the calling task goes on uncancelled.
@Suite("Cancelling one call without cancelling its task")
struct CallCancellationTests {
    static func getTrip(_ client: FleetEngineClient, _ id: String, _ cancellation: CallCancellation) async -> (
        error: FleetEngineError?, taskCancelled: Bool
    ) {
        var request = GetTripRequest()
        request.name = Fixtures.name(id)
        let error = await fleetEngineError { _ = try await client.getTrip(request, cancellation: cancellation) }
        return (error, Task.isCancelled)
    }

    @Test("a call cancelled while the server holds it ends CANCELLED at once; its task is not cancelled")
    func inFlight() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.delay = LoopbackClient.callDeadline
        try await withEmulatorAndClient(emulator) { emulator, client in
            let cancellation = CallCancellation()
            let started = ContinuousClock.now
            let call = Task { await Self.getTrip(client, "slow", cancellation) }
            #expect(await waitUntil { emulator.callCount == 1 })
            cancellation.cancel()
            let (error, taskCancelled) = await call.value
            #expect(error?.code == .cancelled)
            #expect(error?.origin == .local)
            #expect(!taskCancelled)
            // Far sooner than the server's delay, which the call would otherwise have waited out.
            #expect(ContinuousClock.now - started < LoopbackClient.callDeadline)
        }
    }

    @Test("a call cancelled in its pause before a retry ends at once, and no further attempt goes out")
    func duringRetryPause() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.failEvery = 1
        emulator.faults.failCode = .unavailable
        let records = RecordingLogHandler.Records()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        try await withEmulatorAndClient(
            emulator, logger: logger,
            configure: {
                // Three attempts a minute apart: only a cancelled pause ends the call within the test.
                $0.retryPolicy = RetryPolicy(
                    maxAttempts: 3,
                    backoff: Backoff(initial: .seconds(60), multiplier: 1, maximum: .seconds(60), jitter: 0),
                    retryableCodes: [.unavailable])
                $0.defaultDeadline = .seconds(600)
            }
        ) { emulator, client in
            let cancellation = CallCancellation()
            let started = ContinuousClock.now
            let call = Task { await Self.getTrip(client, "a", cancellation) }
            // The retry is decided on (and logged) before its pause begins.
            #expect(await records.first { $0.message == "retrying" } != nil)
            cancellation.cancel()
            let (error, taskCancelled) = await call.value
            #expect(error?.code == .cancelled)
            #expect(ContinuousClock.now - started < .seconds(60))
            #expect(!taskCancelled)
            #expect(emulator.callCount == 1)
        }
    }

    /// Starts a call, cancels it a moment later while it waits (for a token, a connection), and
    /// checks that it ended CANCELLED with its task not cancelled.
    static func expectCancelledWhileWaiting(_ client: FleetEngineClient) async throws {
        let cancellation = CallCancellation()
        let call = Task { await getTrip(client, "a", cancellation) }
        // A cancellation that came before the wait began ends the call as well.
        try await Task.sleep(for: .milliseconds(100))
        cancellation.cancel()
        let (error, taskCancelled) = await call.value
        #expect(error?.code == .cancelled)
        #expect(!taskCancelled)
    }

    @Test("a call cancelled while it waits for its token ends CANCELLED, not at its deadline")
    func whileWaitingForToken() async throws {
        try await withEmulatorAndClient(tokenProvider: HangingTokenProvider()) { emulator, client in
            // The provider is asked and never answers; nothing reaches the server.
            try await Self.expectCancelledWhileWaiting(client)
            #expect(emulator.callCount == 0)
        }
    }

    @Test("a call cancelled while it waits for a connection ends CANCELLED")
    func whileWaitingForConnection() async throws {
        // Without run() the call waits for a connection until its deadline, far past the cancellation.
        let client = try FleetEngineClient(
            configuration: LoopbackClient.configuration(port: 1), tokenProvider: NoTokenProvider())
        try await Self.expectCancelledWhileWaiting(client)
    }

    @Test("a call whose cancellation came first sends nothing")
    func cancelledBefore() async throws {
        try await withEmulatorAndClient { emulator, client in
            let cancellation = CallCancellation()
            cancellation.cancel()
            cancellation.cancel()
            #expect(cancellation.isCancelled)
            let (error, taskCancelled) = await Self.getTrip(client, "a", cancellation)
            #expect(error?.code == .cancelled)
            #expect(!taskCancelled)
            #expect(emulator.callCount == 0)
        }
    }

    @Test("cancelling the task still cancels a call made with a CallCancellation")
    func taskCancellationStillWorks() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.delay = LoopbackClient.callDeadline
        try await withEmulatorAndClient(emulator) { emulator, client in
            let call = Task { await Self.getTrip(client, "slow", CallCancellation()) }
            #expect(await waitUntil { emulator.callCount == 1 })
            call.cancel()
            #expect(await call.value.error?.code == .cancelled)
        }
    }
}
