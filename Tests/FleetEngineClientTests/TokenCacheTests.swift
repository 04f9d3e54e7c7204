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

    static let farDeadline = ContinuousClock.now + .seconds(60)

    @Test("a cached token is handed out again without asking the provider")
    func cachedTokensAreReused() async throws {
        let provider = CountingProvider()
        let cache = TokenCache(provider: provider, capacity: 10)
        for trip in 0..<10 {
            let issued = try await cache.token(for: Self.request(trip), deadline: Self.farDeadline)
            #expect(issued.token.value == "token-for-trip-\(trip)")
            #expect(
                issued.header?.field
                    == GRPCMetadata.Field(name: "authorization", value: "Bearer token-for-trip-\(trip)"))
        }
        for trip in 0..<10 { _ = try await cache.token(for: Self.request(trip), deadline: Self.farDeadline) }
        #expect(provider.count == 10)
        #expect(cache.count == 10)
    }

    @Test("a full cache drops its oldest tenth, so following as many trips as it holds does not thrash")
    func fullCacheDropsTheOldestTenth() async throws {
        let provider = CountingProvider()
        let cache = TokenCache(provider: provider, capacity: 20)
        for trip in 0..<20 { _ = try await cache.token(for: Self.request(trip), deadline: Self.farDeadline) }
        // A 21st trip makes room: trips 0 and 1, the oldest tenth, go.
        _ = try await cache.token(for: Self.request(20), deadline: Self.farDeadline)
        #expect(provider.count == 21)
        #expect(cache.count == 19)
        for trip in 2...20 { _ = try await cache.token(for: Self.request(trip), deadline: Self.farDeadline) }
        #expect(provider.count == 21)
        _ = try await cache.token(for: Self.request(0), deadline: Self.farDeadline)
        #expect(provider.count == 22)
        #expect(provider.requests.withLock { $0.last } == "trip-0")
    }

    @Test("a refresh asks the provider even when a token is cached, and replaces it without making room")
    func refreshReplacesInPlace() async throws {
        let provider = CountingProvider()
        let cache = TokenCache(provider: provider, capacity: 2)
        _ = try await cache.token(for: Self.request(0), deadline: Self.farDeadline)
        _ = try await cache.token(for: Self.request(1), deadline: Self.farDeadline)
        var refresh = Self.request(1)
        refresh.isRefresh = true
        _ = try await cache.token(for: refresh, deadline: Self.farDeadline)
        #expect(provider.count == 3)
        #expect(cache.count == 2)
        _ = try await cache.token(for: Self.request(0), deadline: Self.farDeadline)
        #expect(provider.count == 3)
    }
}
