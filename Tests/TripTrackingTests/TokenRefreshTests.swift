import FleetEngineAuth
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineWire
import Synchronization
import Testing
import TripTracking

/// Hands out consumer tokens for the trip asked about, signed with the emulator's secret only from
/// the `goodFromRequest`-th request on (earlier ones with a secret the emulator does not know), and
/// records every request.
final class ScriptedTokens: TokenProvider {
    static let secret = "trip-tracking-tests-hs256-secret-0123456789"
    static let wrongSecret = "a-secret-the-emulator-has-never-heard-of-42"

    private let goodFromRequest: Int
    private let requests = Mutex<[TokenRequest]>([])

    init(goodFromRequest: Int) {
        self.goodFromRequest = goodFromRequest
    }

    var received: [TokenRequest] { requests.withLock { $0 } }

    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        let number = requests.withLock { requests in
            requests.append(request)
            return requests.count
        }
        let secret = number >= goodFromRequest ? Self.secret : Self.wrongSecret
        let minter = TokenMinter(signingKey: try .hs256(secret: secret), clock: SystemTimeSource())
        return FleetEngineToken(value: try minter.mint(.consumer(tripID: request.tripID ?? "")))
    }

    static func policy(_ clock: ManualTimeSource) throws -> AccessPolicy {
        .verify(TokenVerifier(keys: [try .hs256(secret: secret)], clock: SystemTimeSource()))
    }
}

@Suite("Refused tokens: UNAUTHENTICATED asks the token provider for a fresh one")
struct TokenRefreshTests {
    @Test("a refused consumer token is replaced by a fresh one and following goes on without a failure")
    func freshTokenAfterRefusal() async throws {
        let tokens = ScriptedTokens(goodFromRequest: 2)
        try await withTracking(count: 1, accessPolicy: ScriptedTokens.policy, tokenProvider: tokens) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            await model.refresh()
            harness.clock.advance(by: .seconds(20))
            await model.refresh()
            let events = recorder.take()
            #expect(!events.contains { $0.name == "updateFailed" }, "\(events.map(\.summary))")
            #expect(events.first.map(\.name) == "tripUpdated")
            let received = tokens.received
            #expect(received.first?.isRefresh == false)
            #expect(received.dropFirst().first?.isRefresh == true)
            #expect(received.allSatisfy { $0.tripID == model.tripID && $0.method == .getTrip })
        }
    }

    @Test(
        "a provider whose tokens are always refused: each refresh is one updateFailed(UNAUTHENTICATED) after asking again"
    )
    func alwaysRefused() async throws {
        let tokens = ScriptedTokens(goodFromRequest: .max)
        try await withTracking(count: 1, accessPolicy: ScriptedTokens.policy, tokenProvider: tokens) { harness in
            let model = harness.service.tripModel(for: harness.names[0])
            let recorder = EventRecorder()
            model.register(recorder)
            await model.refresh()
            await model.refresh()
            await model.refresh()
            let events = recorder.take()
            #expect(events.count >= 3)
            for event in events {
                guard case .updateFailed(let error) = event else {
                    Issue.record("unexpected \(event.summary)")
                    continue
                }
                #expect(error.code == .unauthenticated)
                #expect(error.family == .client)
                #expect(!error.description.contains(ScriptedTokens.wrongSecret))
            }
            // Every refused refresh asked for a fresh token once.
            #expect(tokens.received.filter(\.isRefresh).count == events.count)
            #expect(model.modelState == .following)
        }
    }
}
