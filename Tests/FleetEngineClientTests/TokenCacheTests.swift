import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Synchronization
import Testing

@testable import FleetEngineClient

@Suite("The token cache: one token per trip, kept until near expiry, room made a tenth at a time")
struct TokenCacheTests {
    /// Hands out a token per request and counts the requests.
    final class CountingProvider: TokenProvider {
        let requests = Mutex<[String]>([])

        func token(for request: TokenRequest) async throws -> FleetEngineToken {
            requests.withLock { $0.append(request.tripID ?? "") }
            return FleetEngineToken(value: "token-for-\(request.tripID ?? "")")
        }

        var count: Int { requests.withLock { $0.count } }
    }

    static func request(_ trip: Int) -> TokenRequest {
        TokenRequest(method: .getTrip, providerID: "test-project", tripID: "trip-\(trip)")
    }

    @Test("a cached token is handed out again without asking the provider")
    func cachedTokensAreReused() async throws {
        let provider = CountingProvider()
        let cache = TokenCache(provider: provider, capacity: 10)
        for trip in 0..<10 {
            let issued = try await cache.token(for: Self.request(trip), deadline: LoopbackClient.farDeadline)
            #expect(issued.token.value == "token-for-trip-\(trip)")
            #expect(
                issued.header?.field
                    == GRPCMetadata.Field(name: "authorization", value: "Bearer token-for-trip-\(trip)"))
        }
        for trip in 0..<10 { _ = try await cache.token(for: Self.request(trip), deadline: LoopbackClient.farDeadline) }
        #expect(provider.count == 10)
        #expect(cache.count == 10)
    }

    @Test("a full cache drops its oldest tenth, so following as many trips as it holds does not thrash")
    func fullCacheDropsTheOldestTenth() async throws {
        let provider = CountingProvider()
        let cache = TokenCache(provider: provider, capacity: 20)
        for trip in 0..<20 { _ = try await cache.token(for: Self.request(trip), deadline: LoopbackClient.farDeadline) }
        // A 21st trip makes room: trips 0 and 1, the oldest tenth, go.
        _ = try await cache.token(for: Self.request(20), deadline: LoopbackClient.farDeadline)
        #expect(provider.count == 21)
        #expect(cache.count == 19)
        for trip in 2...20 { _ = try await cache.token(for: Self.request(trip), deadline: LoopbackClient.farDeadline) }
        #expect(provider.count == 21)
        _ = try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        #expect(provider.count == 22)
        #expect(provider.requests.withLock { $0.last } == "trip-0")
    }

    @Test("a refresh asks the provider even when a token is cached, and replaces it without making room")
    func refreshReplacesInPlace() async throws {
        let provider = CountingProvider()
        let cache = TokenCache(provider: provider, capacity: 2)
        _ = try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        _ = try await cache.token(for: Self.request(1), deadline: LoopbackClient.farDeadline)
        var refresh = Self.request(1)
        refresh.isRefresh = true
        _ = try await cache.token(for: refresh, deadline: LoopbackClient.farDeadline)
        #expect(provider.count == 3)
        #expect(cache.count == 2)
        _ = try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        #expect(provider.count == 3)
    }

    /// 2100-01-01T00:00:00Z, in seconds since 1970.
    static let year2100 = 4_102_444_800

    @Test(
        "the exp claim is read after a claim whose value is \"exp\", with spaces around its colon, and in exponent form",
        arguments: [
            #"{"sub":"exp","exp":4102444800}"#,
            #"{"authorization":{"tripid":"exp"},"exp":4102444800}"#,
            #"{"exp" : 4102444800}"#,
            #"{"exp":4.1024448E9}"#,
            #"{"exp":4102444800.0}"#,
        ])
    func expClaimIsFound(payload: String) throws {
        var text: [UInt8] = []
        Base64.encode(Array(payload.utf8), into: &text, padded: false)
        let token = "eyJhbGciOiJIUzI1NiJ9." + String(decoding: text, as: UTF8.self) + ".c2ln"
        let expiry = try #require(TokenCache.expiryClaim(of: token))
        // Whenever the test runs before 2100, its exp is ahead, and less than 2100 - 1970 years.
        #expect(expiry > .zero && expiry < .seconds(Self.year2100))
    }

    @Test(
        "a JWT without a number for exp has no expiry claim",
        arguments: [
            #"{"sub":"exp"}"#, #"{"exp":"soon"}"#, #"{"exp":}"#, #"{}"#,
        ])
    func noExpClaim(payload: String) {
        var text: [UInt8] = []
        Base64.encode(Array(payload.utf8), into: &text, padded: false)
        #expect(
            TokenCache.expiryClaim(of: "eyJhbGciOiJIUzI1NiJ9." + String(decoding: text, as: UTF8.self) + ".c2ln") == nil
        )
    }
}

@Suite("The token cache asks the provider once for calls that want the same token at the same time")
struct TokenCacheSharingTests {
    struct NoToken: Error {}

    /// Holds every request until the test opens it; counts requests and cancelled requests.
    final class GatedProvider: TokenProvider {
        private struct State {
            var asked = 0
            var cancelled = 0
            var isOpen = false
            var refreshesOpen = false
        }
        private let state = Mutex(State())
        private let fails: Bool

        init(fails: Bool = false) { self.fails = fails }

        var asked: Int { state.withLock { $0.asked } }
        var cancelled: Int { state.withLock { $0.cancelled } }
        func open() { state.withLock { $0.isOpen = true } }
        /// Lets requests for a refresh through, and no others.
        func openRefreshes() { state.withLock { $0.refreshesOpen = true } }

        func token(for request: TokenRequest) async throws -> FleetEngineToken {
            let number = state.withLock { state in
                state.asked += 1
                return state.asked
            }
            do {
                // Bounded: at most 30 s, then the request fails.
                for _ in 0..<30_000 where !state.withLock({ $0.isOpen || (request.isRefresh && $0.refreshesOpen) }) {
                    try await Task.sleep(for: .milliseconds(1))
                }
            } catch {
                state.withLock { $0.cancelled += 1 }
                throw error
            }
            if fails { throw NoToken() }
            return FleetEngineToken(value: "token-\(number)\(request.isRefresh ? "-refreshed" : "")")
        }
    }

    static func request(_ trip: Int, refresh: Bool = false) -> TokenRequest {
        var request = TokenRequest(method: .getTrip, providerID: "test-project", tripID: "trip-\(trip)")
        request.isRefresh = refresh
        return request
    }

    /// Waits until `condition` holds, and expects it to.
    static func eventually(
        _ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(await waitUntil(condition), sourceLocation: sourceLocation)
    }

    @Test("sixteen calls for two trips cost two provider requests, and each call gets its trip's token")
    func concurrentCallsShareOneRequest() async throws {
        let provider = GatedProvider()
        let cache = TokenCache(provider: provider)
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for call in 0..<16 {
                group.addTask {
                    let issued = try await cache.token(
                        for: Self.request(call % 2), deadline: LoopbackClient.farDeadline)
                    return (call % 2, issued.token.value)
                }
            }
            // The provider's requests run as tasks of their own, which may start a little later.
            try await Self.eventually { cache.waitingCalls == 16 && provider.asked >= 2 }
            #expect(provider.asked == 2)
            provider.open()
            var tokens: [Int: Set<String>] = [:]
            for try await (trip, token) in group { tokens[trip, default: []].insert(token) }
            #expect(tokens[0]?.count == 1)
            #expect(tokens[1]?.count == 1)
            #expect(tokens[0] != tokens[1])
        }
        #expect(provider.asked == 2)
        #expect(cache.waitingCalls == 0)
        _ = try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        #expect(provider.asked == 2)
    }

    @Test("calls racing a provider that answers at once still cost one request: none misses the token just kept")
    func racingCallsFindTheKeptToken() async throws {
        // A call that found no token, then no request under way because the answer had just come,
        // asked the provider again. Many rounds of many calls make that window likely to be hit.
        for round in 0..<100 {
            let provider = TokenCacheTests.CountingProvider()
            let cache = TokenCache(provider: provider)
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline).token.value
                    }
                }
                for try await token in group { #expect(token == "token-for-trip-0") }
            }
            #expect(provider.count == 1, "round \(round): \(provider.count) provider requests")
        }
    }

    @Test("a refresh for a token already replaced takes the replacement; one for the replacement asks again")
    func refreshOfAReplacedToken() async throws {
        let provider = SuccessiveTokenProvider(["first", "second", "third"])
        let cache = TokenCache(provider: provider)
        let refresh = Self.request(0, refresh: true)
        #expect(
            try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline).token.value == "first")
        #expect(
            try await cache.token(for: refresh, refused: "first", deadline: LoopbackClient.farDeadline).token.value
                == "second")
        // A second call refused with the first token, after the refresh: the second token, no request.
        #expect(
            try await cache.token(for: refresh, refused: "first", deadline: LoopbackClient.farDeadline).token.value
                == "second")
        #expect(provider.count == 2)
        #expect(
            try await cache.token(for: refresh, refused: "second", deadline: LoopbackClient.farDeadline).token.value
                == "third")
        // A refresh that names no refused token always asks.
        #expect(try await cache.token(for: refresh, deadline: LoopbackClient.farDeadline).token.value == "third")
        #expect(provider.count == 4)
    }

    @Test("a refresh does not wait for a plain request under way, and refreshes share one")
    func refreshesWaitOnlyForRefreshes() async throws {
        let provider = GatedProvider()
        let cache = TokenCache(provider: provider)
        try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline).token.value
            }
            try await Self.eventually { cache.waitingCalls == 1 }
            for _ in 0..<3 {
                group.addTask {
                    try await cache.token(for: Self.request(0, refresh: true), deadline: LoopbackClient.farDeadline)
                        .token
                        .value
                }
            }
            try await Self.eventually { cache.waitingCalls == 4 && provider.asked >= 2 }
            #expect(provider.asked == 2)
            provider.open()
            var tokens: [String] = []
            for try await token in group { tokens.append(token) }
            #expect(tokens.filter { $0.hasSuffix("-refreshed") }.count == 3)
            #expect(Set(tokens).count == 2)
        }
    }

    @Test("a plain request that answers after a refresh asked later does not replace the refreshed token")
    func lateAnswerKeepsTheRefreshedToken() async throws {
        let provider = GatedProvider()
        let cache = TokenCache(provider: provider)
        async let plain = cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        try await Self.eventually { provider.asked == 1 }
        async let refreshed = cache.token(for: Self.request(0, refresh: true), deadline: LoopbackClient.farDeadline)
        try await Self.eventually { provider.asked == 2 }
        provider.openRefreshes()
        #expect(try await refreshed.token.value == "token-2-refreshed")
        provider.open()
        #expect(try await plain.token.value == "token-1")
        let cached = try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        #expect(cached.token.value == "token-2-refreshed")
        #expect(provider.asked == 2)
    }

    @Test("when the last waiting call gives up, the provider's request is cancelled and the next call asks anew")
    func abandonedRequestIsCancelled() async throws {
        let provider = GatedProvider()
        let cache = TokenCache(provider: provider)
        let error = await #expect(throws: FleetEngineError.self) {
            _ = try await cache.token(for: Self.request(0), deadline: .now + .milliseconds(50))
        }
        #expect(error?.code == .deadlineExceeded)
        try await Self.eventually { provider.cancelled == 1 }
        #expect(cache.waitingCalls == 0)
        provider.open()
        let issued = try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline)
        #expect(issued.token.value == "token-2")
        #expect(provider.asked == 2)
    }

    @Test("a call cancelled while it waits ends at once; the others still get the token from the one request")
    func cancelledWaiterLeavesOthers() async throws {
        let provider = GatedProvider()
        let cache = TokenCache(provider: provider)
        let staying = Task {
            try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline).token.value
        }
        let leaving = Task {
            try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline).token.value
        }
        try await Self.eventually { cache.waitingCalls == 2 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { _ = try await leaving.value }
        #expect(cache.waitingCalls == 1)
        #expect(provider.cancelled == 0)
        provider.open()
        #expect(try await staying.value == "token-1")
        #expect(provider.asked == 1)
    }

    @Test("a provider's failure reaches every call waiting for it, and is not kept")
    func failureReachesEveryWaiter() async throws {
        let provider = GatedProvider(fails: true)
        let cache = TokenCache(provider: provider)
        let waiting = (0..<4).map { _ in
            Task { try await cache.token(for: Self.request(0), deadline: LoopbackClient.farDeadline) }
        }
        try await Self.eventually { cache.waitingCalls == 4 }
        provider.open()
        for task in waiting { await #expect(throws: NoToken.self) { _ = try await task.value } }
        #expect(provider.asked == 1)
        await #expect(throws: NoToken.self) {
            _ = try await cache.token(for: Self.request(0, refresh: false), deadline: LoopbackClient.farDeadline)
        }
        #expect(provider.asked == 2)
    }
}
