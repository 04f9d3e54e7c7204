import FleetEngineAuth
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import NIOSSL
import Synchronization
import Testing

@Suite("Failures as typed errors: statuses, deadlines, cancellation, retries, lost connections, TLS")
struct ClientFailureTests {
    static let secret = "client-tests-hs256-secret-0123456789abcdef"

    static func authorizingEmulator() throws -> EmulatorConfiguration {
        EmulatorConfiguration(accessPolicy: .verify(TokenVerifier(keys: [try .hs256(secret: secret)])))
    }

    static func mint(_ role: TokenRole, secret: String = secret) throws -> String {
        try TokenMinter(signingKey: .hs256(secret: secret)).mint(role)
    }

    @Test("NOT_FOUND arrives with the server's ErrorInfo decoded, in the client family, not retried")
    func notFoundWithDetails() async throws {
        let attempts = Mutex(0)
        try await withEmulatorAndClient { _, client in
            let error = try #require(
                await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("missing")) })
            #expect(error.code == .notFound)
            #expect(error.family == .client)
            #expect(error.origin == .status)
            #expect(error.message == "trip \(Fixtures.name("missing")) not found")
            guard case .errorInfo(let info) = error.details.first else {
                Issue.record("no ErrorInfo: \(error.details)")
                return
            }
            #expect(info.reason == "TRIP_NOT_FOUND")
            #expect(info.metadata["trip"] == Fixtures.name("missing"))
            attempts.withLock { $0 += 1 }
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test("ALREADY_EXISTS for a duplicate create")
    func duplicateCreate() async throws {
        try await withEmulatorAndClient { _, client in
            _ = try await client.createTrip(Fixtures.create("twice"))
            let error = await fleetEngineError { _ = try await client.createTrip(Fixtures.create("twice")) }
            #expect(error?.code == .alreadyExists)
            #expect(error?.family == .conflict)
        }
    }

    @Test("a consumer token reads its own trip; another trip is PERMISSION_DENIED; a write is PERMISSION_DENIED")
    func consumerToken() async throws {
        let emulator = try Self.authorizingEmulator()
        let server = try Self.mint(.server)
        // The trips are made with a server token; the consumer's client then connects to the same emulator.
        try await withEmulatorAndClient(emulator, tokenProvider: StaticTokenProvider(server)) {
            emulatorInstance, admin in
            _ = try await admin.createTrip(Fixtures.create("mine"))
            _ = try await admin.createTrip(Fixtures.create("theirs"))
            let port = try await emulatorInstance.listeningPort()
            let consumer = try Self.mint(.consumer(tripID: "mine"))
            try await withFleetEngineClient(
                configuration: LoopbackClient.configuration(port: port), tokenProvider: StaticTokenProvider(consumer)
            ) { client async throws in
                let mine = try await client.getTrip(named: Fixtures.name("mine"))
                #expect(mine.name == Fixtures.name("mine"))
                let other = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("theirs")) }
                #expect(other?.code == .permissionDenied)
                let write = await fleetEngineError { _ = try await client.createTrip(Fixtures.create("new")) }
                #expect(write?.code == .permissionDenied)
            }
        }
    }

    @Test("no token, or one with a bad signature, is UNAUTHENTICATED after one fresh token was asked for")
    func unauthenticatedAsksOnceMore() async throws {
        let bad = try Self.mint(.server, secret: "a-secret-the-emulator-does-not-know-at-all")
        let provider = CountingTokenProvider(token: bad)
        try await withEmulatorAndClient(try Self.authorizingEmulator(), tokenProvider: provider) { _, client in
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("any")) }
            #expect(error?.code == .unauthenticated)
            #expect(error?.family == .client)
            // The token never appears in what the error says.
            #expect(!(error?.description.contains(bad) ?? true))
        }
        #expect(provider.requests.map(\.isRefresh) == [false, true])
    }

    @Test("calls refused together with one token cost one refresh: those refused after it take the new token")
    func callsRefusedTogetherShareARefresh() async throws {
        let bad = try Self.mint(.server, secret: "a-secret-the-emulator-does-not-know-at-all")
        let provider = SuccessiveTokenProvider([bad, try Self.mint(.server)])
        try await withEmulatorAndClient(try Self.authorizingEmulator(), tokenProvider: provider) { _, client in
            try await withThrowingTaskGroup(of: FleetEngineError?.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("one")) }
                    }
                }
                for try await error in group { #expect(error?.code == .notFound) }
            }
        }
        #expect(provider.count == 2)
    }

    @Test("tokens are asked per trip and cached until near expiry")
    func tokensCachedPerTrip() async throws {
        let provider = CountingTokenProvider(token: try Self.mint(.server))
        try await withEmulatorAndClient(try Self.authorizingEmulator(), tokenProvider: provider) { _, client in
            _ = try await client.createTrip(Fixtures.create("a"))
            _ = try await client.createTrip(Fixtures.create("b"))
            for _ in 0..<3 {
                _ = try await client.getTrip(named: Fixtures.name("a"))
                _ = try await client.getTrip(named: Fixtures.name("b"))
            }
        }
        let reads = provider.requests.filter(\.isRead).map { $0.tripID ?? "" }
        #expect(reads == ["a", "b"])
    }

    @Test("UNAVAILABLE on every other call is retried: every call succeeds")
    func retriesUnavailable() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.failEvery = 2
        try await withEmulatorAndClient(
            emulator,
            configure: {
                $0.retryPolicy.backoff = Backoff(initial: .milliseconds(5), multiplier: 1.3, maximum: .milliseconds(20))
            }
        ) { _, client in
            _ = try await client.createTrip(Fixtures.create("flaky"))
            for _ in 0..<6 {
                #expect(try await client.getTrip(named: Fixtures.name("flaky")).name == Fixtures.name("flaky"))
            }
        }
    }

    @Test("INTERNAL is not retried: the first failure is the result")
    func internalNotRetried() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.failEvery = 2
        emulator.faults.failCode = .internalError
        try await withEmulatorAndClient(emulator) { _, client in
            _ = try await client.createTrip(Fixtures.create("x"))  // call 1 passes
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("x")) }
            #expect(error?.code == .internalError)
            #expect(try await client.getTrip(named: Fixtures.name("x")).name == Fixtures.name("x"))  // call 3
        }
    }

    @Test("a server slower than the deadline gives DEADLINE_EXCEEDED, and grpc-timeout told the server")
    func deadline() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        // The server would answer, with the trip, only after LoopbackClient.callDeadline: a call that did
        // not end at its own deadline would succeed, not fail.
        emulator.faults.delay = LoopbackClient.callDeadline
        try await withEmulatorAndClient(emulator) { _, client in
            let error = await fleetEngineError {
                _ = try await client.getTrip(
                    named: Fixtures.name("slow"), options: CallOptions(timeout: .milliseconds(200)))
            }
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.family == .serverOrNetwork)
        }
    }

    @Test("each call ends at its own deadline: a short one started after a long one does not wait for it")
    func deadlinesOfCallsInFlight() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.delay = LoopbackClient.callDeadline
        try await withEmulatorAndClient(emulator, configure: { $0.retryPolicy = .none }) { emulator, client in
            let longEnded = Mutex(false)
            let long = Task { () async -> FleetEngineError? in
                let error = await fleetEngineError {
                    _ = try await client.getTrip(
                        named: Fixtures.name("slow"), options: CallOptions(timeout: LoopbackClient.callDeadline))
                }
                longEnded.withLock { $0 = true }
                return error
            }
            // The long call reaches the emulator (and its delay) first, so that its deadline is the
            // one the client is waiting for when the short call arrives.
            #expect(await waitUntil { emulator.callCount == 1 })
            let short = await fleetEngineError {
                _ = try await client.getTrip(
                    named: Fixtures.name("slow"), options: CallOptions(timeout: .milliseconds(200)))
            }
            #expect(short?.code == .deadlineExceeded)
            #expect(!longEnded.withLock { $0 }, "the long call waits for its server or its own deadline")
            long.cancel()
            #expect(await long.value?.code == .cancelled)
        }
    }

    @Test("cancelling the calling task ends the call with CANCELLED at once")
    func cancellation() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.delay = LoopbackClient.callDeadline
        try await withEmulatorAndClient(emulator) { emulator, client in
            let task = Task { () async -> FleetEngineError? in
                await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("slow")) }
            }
            // Cancelled once the call is in flight: it has reached the emulator and waits there.
            #expect(await waitUntil { emulator.callCount == 1 })
            task.cancel()
            let error = await task.value
            #expect(error?.code == .cancelled)
        }
    }

    @Test("nothing listening: UNAVAILABLE, connection failed before sending, with the cause kept")
    func connectionRefused() async throws {
        // Take a port from an emulator and stop it, so that nothing listens there.
        let port = try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) {
            try await $0.listeningPort()
        }
        var configuration = LoopbackClient.configuration(port: port)
        configuration.retryPolicy = .none
        try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) { client in
            let error = try #require(await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(error.code == .unavailable)
            #expect(error.origin == .connection(requestSent: false))
            #expect(error.cause != nil)
        }
    }

    @Test("a dropped connection fails the call in flight; the next call reconnects")
    func droppedConnection() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.faults.dropConnectionAtCall = 2
        try await withEmulatorAndClient(emulator, configure: { $0.retryPolicy = .none }) { _, client in
            _ = try await client.createTrip(Fixtures.create("d"))
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("d")) }
            #expect(error?.code == .unavailable)
            #expect(try await client.getTrip(named: Fixtures.name("d")).name == Fixtures.name("d"))
        }
    }

    @Test("TLS with a trusted test certificate works; an untrusted one fails with UNAVAILABLE")
    func tls() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.tls = (
            try Fixtures.fixtureText("tls/test-server-cert.pem"), try Fixtures.fixtureText("tls/test-server-key.pem")
        )
        let certificate = try NIOSSLCertificate(
            bytes: Array(try Fixtures.fixtureText("tls/test-server-cert.pem").utf8), format: .pem)
        try await withFleetEngineEmulator(emulator) { server in
            let port = try await server.listeningPort()
            var trusted = ClientConfiguration(
                endpoint: .init(host: "127.0.0.1", port: port),
                transportSecurity: .tls(trustRoots: .certificates([certificate]), serverHostname: "localhost"))
            trusted.defaultDeadline = LoopbackClient.callDeadline
            try await withFleetEngineClient(configuration: trusted, tokenProvider: NoTokenProvider()) { client in
                let trip = try await client.createTrip(Fixtures.create("secure"))
                #expect(trip.name == Fixtures.name("secure"))
            }
            var untrusted = ClientConfiguration(
                endpoint: .init(host: "127.0.0.1", port: port), transportSecurity: .tls(serverHostname: "localhost"))
            untrusted.retryPolicy = .none
            untrusted.defaultDeadline = LoopbackClient.callDeadline
            try await withFleetEngineClient(configuration: untrusted, tokenProvider: NoTokenProvider()) { client in
                let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("secure")) }
                #expect(error?.code == .unavailable)
                #expect(error?.origin == .connection(requestSent: false))
            }
        }
    }

    @Test("a plaintext client against a TLS server fails with UNAVAILABLE, not a hang")
    func plaintextAgainstTLS() async throws {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.tls = (
            try Fixtures.fixtureText("tls/test-server-cert.pem"), try Fixtures.fixtureText("tls/test-server-key.pem")
        )
        try await withFleetEngineEmulator(emulator) { server in
            var configuration = LoopbackClient.configuration(port: try await server.listeningPort())
            configuration.retryPolicy = .none
            configuration.connectTimeout = .seconds(3)
            try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) { client in
                let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
                #expect(error?.code == .unavailable)
            }
        }
    }
}

/// Hands out one token and records every request for it.
final class CountingTokenProvider: TokenProvider {
    private let token: String
    private let log = Mutex<[TokenRequest]>([])

    init(token: String) { self.token = token }

    var requests: [TokenRequest] { log.withLock { $0 } }

    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        log.withLock { $0.append(request) }
        return FleetEngineToken(value: token)
    }
}

/// Hands out the given tokens in turn, the last one from then on, and counts the requests.
final class SuccessiveTokenProvider: TokenProvider {
    private let tokens: [String]
    private let asked = Mutex(0)

    init(_ tokens: [String]) { self.tokens = tokens }

    var count: Int { asked.withLock { $0 } }

    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        let index = asked.withLock { count in
            defer { count += 1 }
            return min(count, tokens.count - 1)
        }
        return FleetEngineToken(value: tokens[index])
    }
}

/// A provider that never answers until cancelled.
struct HangingTokenProvider: TokenProvider {
    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        try await Task.sleep(for: .seconds(3_600))
        return FleetEngineToken(value: "never")
    }
}

@Suite("Token providers that fail")
struct TokenProviderFailureTests {
    @Test("a provider that hangs fails the call with DEADLINE_EXCEEDED at the call's deadline")
    func hangingProvider() async throws {
        try await withEmulatorAndClient(tokenProvider: HangingTokenProvider()) { _, client in
            let error = await fleetEngineError {
                _ = try await client.getTrip(
                    named: Fixtures.name("a"), options: CallOptions(timeout: .milliseconds(200)))
            }
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.origin == .local)
        }
    }

    @Test("a provider that throws fails the call with UNAUTHENTICATED and keeps the cause")
    func throwingProvider() async throws {
        struct NoCredentials: Error {}
        struct Throwing: TokenProvider {
            func token(for request: TokenRequest) async throws -> FleetEngineToken { throw NoCredentials() }
        }
        try await withEmulatorAndClient(tokenProvider: Throwing()) { _, client in
            let error = try #require(await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(error.code == .unauthenticated)
            #expect(error.origin == .local)
            #expect(error.cause is NoCredentials)
        }
    }

    @Test("a provider that throws CancellationError of its own accord fails the call as its failure, asked once")
    func providerThrowingCancellation() async throws {
        final class Cancelling: TokenProvider {
            let asked = Mutex(0)
            func token(for request: TokenRequest) async throws -> FleetEngineToken {
                asked.withLock { $0 += 1 }
                throw CancellationError()
            }
        }
        let provider = Cancelling()
        try await withEmulatorAndClient(
            tokenProvider: provider,
            configure: {
                $0.retryPolicy.backoff = Backoff(initial: .milliseconds(1), multiplier: 1, maximum: .milliseconds(1))
            }
        ) { _, client in
            let error = try #require(await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(error.code == .unauthenticated)
            #expect(error.origin == .local)
            #expect(error.message == "the token provider failed: CancellationError()")
            #expect(error.cause is CancellationError)
        }
        #expect(provider.asked.withLock { $0 } == 1)
    }

    @Test(
        "a token that cannot go in a header fails the call with UNAUTHENTICATED, is not kept, and is asked for again",
        arguments: ["SECRET\r\nx-injected: 1", "SECRET\tinside", "SECRET ", "SECRET-caf\u{E9}"])
    func unsendableToken(bad: String) async throws {
        let provider = SuccessiveTokenProvider([bad, "good-token"])
        try await withEmulatorAndClient(tokenProvider: provider) { _, client in
            let refused = try #require(
                await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(refused.code == .unauthenticated)
            #expect(refused.origin == .local)
            #expect(refused.message.contains("authorization"))
            #expect(!"\(refused)".contains("SECRET"))
            #expect(!String(describing: refused.cause as Any).contains("SECRET"))
            // The next call for the same trip asks the provider again, and its token reaches the server.
            let answered = try #require(
                await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a"), options: .init()) })
            #expect(answered.code == .notFound)
            #expect(provider.count == 2)
        }
    }
}
