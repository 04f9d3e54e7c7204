import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

@testable import FleetEngineAuth

/// Tokens made by google-auth (and one HS256 token made with Python's hmac), verified at the clock
/// the fixture script fixed. See Scripts/make-auth-fixtures.py.
@Suite("google-auth tokens")
struct GoogleAuthTokenTests {
    static let accepted = ["consumer", "server", "unnamed-key", "several-audiences", "consumer-hs256"]
    static let refused = ["expired", "wrong-audience", "issued-in-future", "driver-token", "other-key"]

    private func verifier() throws -> TokenVerifier {
        let fixture = try AuthFixtures.googleAuth()
        return TokenVerifier(
            keys: [
                try .rs256(publicKeyPEM: AuthFixtures.rsaPublicPEM(), id: fixture.rsaKeyID),
                try .hs256(secret: AuthFixtures.hs256Secret()),
            ],
            audience: fixture.audience,
            leeway: .seconds(fixture.leeway),
            clock: AuthTestClock(seconds: fixture.now)
        )
    }

    @Test("every fixture token is covered by a test")
    func everyFixtureIsTested() throws {
        let names = try AuthFixtures.googleAuth().tokens.map(\.name)
        #expect(names.sorted() == (Self.accepted + Self.refused).sorted())
    }

    @Test("a google-auth token is accepted with exactly the claims Python wrote", arguments: accepted)
    func acceptedWithClaims(_ name: String) throws {
        let fixture = try AuthFixtures.signedToken(named: name)
        let expected = try #require(fixture.claims)
        let claims = try verifier().verify(authorization: "Bearer \(fixture.token)")
        #expect(claims == expected.asClaims)
        #expect(claims.isServerToken == (expected.tripid == "*"))
        let parsed = try JSONWebToken(compact: fixture.token)
        #expect(parsed.header.algorithm.rawValue == fixture.algorithm)
        #expect(parsed.header.type == "JWT")
    }

    @Test("a google-auth token that must be refused gets the fixture's status and reason", arguments: refused)
    func refusedWithReason(_ name: String) throws {
        let fixture = try AuthFixtures.signedToken(named: name)
        let rejection = try #require(fixture.rejection)
        let verifier = try verifier()
        let error = try #require(throws: FleetEngineError.self) {
            try verifier.verify(authorization: "Bearer \(fixture.token)")
        }
        #expect(error.code.name == rejection.code)
        #expect(error.authErrorInfo?.reason == rejection.reason)
        #expect(!error.message.contains(fixture.token.split(separator: ".")[2]))
    }

    @Test("google-auth's kid selects the key it names; a key with another id is not tried")
    func keyIDSelectsKey() throws {
        let fixture = try AuthFixtures.signedToken(named: "consumer")
        var verifier = try verifier()
        verifier.keys = [try .rs256(publicKeyPEM: AuthFixtures.rsaPublicPEM(), id: "another-key")]
        #expect(throws: JWTError(code: .unknownKeyID, message: "")) { try verifier.verify(token: fixture.token) }
        // A key without an id is a candidate for any kid.
        verifier.keys = [try .rs256(publicKeyPEM: AuthFixtures.rsaPublicPEM())]
        #expect(try verifier.verify(token: fixture.token).tripID == "trip-1")
    }

    @Test("the same google-auth token is accepted until exp plus the leeway and refused from then on")
    func expiryIsExact() throws {
        let fixture = try AuthFixtures.signedToken(named: "consumer")
        let exp = try #require(fixture.claims?.exp)
        var verifier = try verifier()
        verifier.clock = AuthTestClock(seconds: exp + 29, nanos: 900_000_000)
        #expect(try verifier.verify(token: fixture.token).tripID == "trip-1")
        verifier.clock = AuthTestClock(seconds: exp + 30)
        #expect(throws: JWTError(code: .expired, message: "")) { try verifier.verify(token: fixture.token) }
    }
}
