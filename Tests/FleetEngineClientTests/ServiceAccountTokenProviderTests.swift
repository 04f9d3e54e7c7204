import FleetEngineAuth
import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Foundation
import Synchronization
import Testing

/// A clock that moves one second forward each time it is read, so that every token minted from it
/// differs from the one before: equal tokens were minted once.
final class TickingClock: TimeSource {
    private let seconds: Mutex<Int64>

    init(start: Int64) {
        seconds = Mutex(start)
    }

    func now() -> Timestamp {
        seconds.withLock { seconds in
            seconds += 1
            return Timestamp(seconds: seconds, nanos: 0)
        }
    }
}

/// `ServiceAccountTokenProvider`: server tokens minted from a key, kept until shortly before they
/// expire, minted afresh on a refresh, and accepted by an emulator that holds the public key.
@Suite("Service account token provider")
struct ServiceAccountTokenProviderTests {
    static let request = TokenRequest(method: .getTrip, providerID: "test-project", tripID: "trip-1")
    static let refresh = TokenRequest(method: .getTrip, providerID: "test-project", tripID: "trip-1", isRefresh: true)

    static func claims(of token: FleetEngineToken) throws -> FleetEngineClaims {
        try JSONWebToken(compact: token.value).claims()
    }

    @Test("a server token is kept until five minutes before it expires, then minted again")
    func keepsUntilRefreshMargin() async throws {
        let key = try ServiceAccountKey(json: try TestServiceAccount().json())
        let clock = ManualTimeSource(start: Timestamp(seconds: 1_767_225_600, nanos: 0))
        let provider = ServiceAccountTokenProvider(serviceAccount: key, clock: clock)
        let first = try await provider.token(for: Self.request)
        let claims = try Self.claims(of: first)
        #expect(claims.role == .server)
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_767_229_200))
        let expiration = try #require(first.expiration)
        #expect(expiration > .now + .seconds(3590) && expiration <= .now + .seconds(3600))
        clock.advance(by: .seconds(3300 - 1))
        let kept = try await provider.token(for: Self.request)
        #expect(kept.value == first.value)
        let keptExpiration = try #require(kept.expiration)
        #expect(keptExpiration > .now + .seconds(290) && keptExpiration <= .now + .seconds(301))
        clock.advance(by: .seconds(1))
        let renewed = try await provider.token(for: Self.request)
        #expect(renewed.value != first.value)
        #expect(try Self.claims(of: renewed).issuedAt == Date(timeIntervalSince1970: 1_767_228_900))
    }

    @Test("a refresh (after UNAUTHENTICATED) mints a new token, which later requests then get")
    func refreshMintsAgain() async throws {
        let key = try ServiceAccountKey(json: try TestServiceAccount().json())
        let provider = ServiceAccountTokenProvider(serviceAccount: key, clock: TickingClock(start: 1_767_225_600))
        let first = try await provider.token(for: Self.request)
        let refreshed = try await provider.token(for: Self.refresh)
        #expect(refreshed.value != first.value)
        #expect(try await provider.token(for: Self.request).value == refreshed.value)
    }

    @Test("requests that come together before there is a token get one token, minted once")
    func concurrentFirstRequestsMintOnce() async throws {
        let key = try ServiceAccountKey(json: try TestServiceAccount().json())
        let provider = ServiceAccountTokenProvider(serviceAccount: key, clock: TickingClock(start: 1_767_225_600))
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                let request = TokenRequest(method: .getTrip, providerID: "test-project", tripID: "trip-\(index)")
                group.addTask { try await provider.token(for: request).value }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values.count == 1)
    }

    @Test("an emulator with the key's public key accepts the tokens; a consumer token reads its own trip only")
    func emulatorEnforcesAuthorization() async throws {
        let account = try TestServiceAccount()
        let key = try ServiceAccountKey(json: try account.json())
        // The key as `fleettrips serve --jwt-public-key` takes it: the public PEM, without a key id.
        let verifier = TokenVerifier(keys: [try .rs256(publicKeyPEM: account.publicKeyPEM)])
        let emulator = EmulatorConfiguration(accessPolicy: .verify(verifier))
        let provider = ServiceAccountTokenProvider(serviceAccount: key)
        try await withEmulatorAndClient(emulator, tokenProvider: provider) { emulatorInstance, client in
            _ = try await client.createTrip(Fixtures.create("mine"))
            _ = try await client.createTrip(Fixtures.create("theirs"))
            #expect(try await client.getTrip(named: Fixtures.name("theirs")).name == Fixtures.name("theirs"))
            let consumer = try TokenMinter(serviceAccount: key).mint(.consumer(tripID: "mine"))
            try await withFleetEngineClient(
                configuration: LoopbackClient.configuration(port: try await emulatorInstance.listeningPort()),
                tokenProvider: StaticTokenProvider(consumer)
            ) { rider async throws in
                #expect(try await rider.getTrip(named: Fixtures.name("mine")).name == Fixtures.name("mine"))
                let other = await fleetEngineError { _ = try await rider.getTrip(named: Fixtures.name("theirs")) }
                #expect(other?.code == .permissionDenied)
                #expect(other.flatMap(\.authErrorInfo)?.reason == "TRIP_ID_MISMATCH")
            }
        }
    }

    @Test("an emulator holding another key refuses the tokens as UNAUTHENTICATED")
    func otherKeyIsRefused() async throws {
        let key = try ServiceAccountKey(json: try TestServiceAccount().json())
        let other = try ServiceAccountKey(json: try TestServiceAccount().json())
        let emulator = EmulatorConfiguration(accessPolicy: .verify(TokenVerifier(keys: [other.verificationKey])))
        try await withEmulatorAndClient(emulator, tokenProvider: ServiceAccountTokenProvider(serviceAccount: key)) {
            _, client in
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("any")) }
            #expect(error?.code == .unauthenticated)
            #expect(error.flatMap(\.authErrorInfo)?.reason == "UNKNOWN_KEY_ID")
        }
    }
}
