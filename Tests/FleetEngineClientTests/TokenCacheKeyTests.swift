import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Synchronization
import Testing

@testable import FleetEngineClient

@Suite("The token cache keeps a token per method, provider and trip id, with ids compared byte for byte")
struct TokenCacheKeyTests {
    /// Hands out a token naming the method and the trip id's code points, and records each request;
    /// holds every request until opened when made closed.
    final class NamingProvider: TokenProvider {
        private let requestLog = Mutex<[TokenRequest]>([])
        private let isOpen: Mutex<Bool>

        init(open: Bool = true) { isOpen = Mutex(open) }

        var requests: [TokenRequest] { requestLog.withLock { $0 } }
        func open() { isOpen.withLock { $0 = true } }

        static func token(method: GRPCMethodPath, tripID: String) -> String {
            "\(method.method)-" + tripID.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: "_")
        }

        func token(for request: TokenRequest) async throws -> FleetEngineToken {
            requestLog.withLock { $0.append(request) }
            // Bounded: at most 30 s, then the request is answered anyway.
            for _ in 0..<30_000 where !isOpen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
            return FleetEngineToken(value: Self.token(method: request.method, tripID: request.tripID ?? ""))
        }
    }

    static func request(_ method: GRPCMethodPath, _ tripID: String) -> TokenRequest {
        TokenRequest(method: method, providerID: "test-project", tripID: tripID)
    }

    @Test("a billable trip id and a trip of the same id get their own tokens, as do the writes on one trip")
    func methodsHaveTheirOwnTokens() async throws {
        let provider = NamingProvider()
        let cache = TokenCache(provider: provider)
        let methods: [GRPCMethodPath] = [.reportBillableTrip, .updateTrip, .deleteTrip, .createTrip]
        for method in methods {
            let issued = try await cache.token(for: Self.request(method, "X"), deadline: LoopbackClient.farDeadline)
            #expect(issued.token.value == NamingProvider.token(method: method, tripID: "X"))
        }
        #expect(provider.requests.map(\.method) == methods)
        // Kept apart, each is handed out again without asking.
        for method in methods {
            let issued = try await cache.token(for: Self.request(method, "X"), deadline: LoopbackClient.farDeadline)
            #expect(issued.token.value == NamingProvider.token(method: method, tripID: "X"))
        }
        #expect(provider.requests.count == methods.count)
    }

    @Test("calls for one trip by two methods at once do not share the first one's provider request")
    func concurrentMethodsDoNotShareARequest() async throws {
        let provider = NamingProvider(open: false)
        let cache = TokenCache(provider: provider)
        async let update = cache.token(for: Self.request(.updateTrip, "X"), deadline: LoopbackClient.farDeadline)
        #expect(await waitUntil { !provider.requests.isEmpty })
        async let delete = cache.token(for: Self.request(.deleteTrip, "X"), deadline: LoopbackClient.farDeadline)
        #expect(await waitUntil { provider.requests.count == 2 })
        provider.open()
        #expect(try await update.token.value == NamingProvider.token(method: .updateTrip, tripID: "X"))
        #expect(try await delete.token.value == NamingProvider.token(method: .deleteTrip, tripID: "X"))
        #expect(provider.requests.count == 2)
    }

    @Test("trip ids that are canonically equivalent but not the same code points (NFC, NFD) get their own tokens")
    func canonicallyEquivalentTripIDsAreDistinct() async throws {
        let provider = NamingProvider()
        let cache = TokenCache(provider: provider)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let first = try await cache.token(for: Self.request(.getTrip, composed), deadline: LoopbackClient.farDeadline)
        let second = try await cache.token(
            for: Self.request(.getTrip, decomposed), deadline: LoopbackClient.farDeadline)
        #expect(first.token.value == "GetTrip-63_61_66_e9")
        #expect(second.token.value == "GetTrip-63_61_66_65_301")
        let asked = provider.requests.map { Array(($0.tripID ?? "").utf8) }
        #expect(asked == [Array(composed.utf8), Array(decomposed.utf8)])
        #expect(cache.count == 2)
    }
}
