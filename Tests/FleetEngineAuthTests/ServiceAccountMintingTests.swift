import FleetEngineAuth
import FleetEngineCodec
import FleetEngineTestSupport
import Foundation
import Testing

/// Tokens minted with a service account key: exactly the header and claims Fleet Engine documents,
/// checked by our verifier and by Google's google-auth.
@Suite("Service account tokens")
struct ServiceAccountMintingTests {
    static let audience = "https://fleetengine.googleapis.com/"

    /// One role, and the `authorization` claim Fleet Engine documents for it.
    struct RoleCase: Sendable, CustomTestStringConvertible {
        var role: TokenRole
        var tripID: String?
        var vehicleID: String?
        var testDescription: String { role.description }
    }

    static let roles = [
        RoleCase(role: .server, tripID: "*", vehicleID: "*"),
        RoleCase(role: .consumer(tripID: "trip-1"), tripID: "trip-1"),
        RoleCase(role: .driver(vehicleID: "vehicle-7"), vehicleID: "vehicle-7"),
    ]

    /// The wall clock now, in whole seconds: google-auth checks `iat` and `exp` against its own.
    static func wallClock() -> ManualTimeSource {
        ManualTimeSource(start: Timestamp(seconds: Int64(Date().timeIntervalSince1970), nanos: 0))
    }

    @Test("a token carries alg RS256, typ JWT, kid the key id, iss and sub the email, Fleet Engine's aud, an hour")
    func documentedLayout() throws {
        let account = try TestServiceAccount()
        let key = try ServiceAccountKey(json: try account.json())
        let clock = ManualTimeSource(start: Timestamp(seconds: 1_767_225_600, nanos: 250_000_000))
        let minter = TokenMinter(serviceAccount: key, clock: clock)
        for roleCase in Self.roles {
            let token = try JSONWebToken(compact: try minter.mint(roleCase.role))
            #expect(token.header == JSONWebToken.Header(algorithm: .rs256, keyID: account.privateKeyID, type: "JWT"))
            let claims = try token.claims()
            #expect(
                claims
                    == FleetEngineClaims(
                        issuer: account.clientEmail,
                        subject: account.clientEmail,
                        audience: [Self.audience],
                        issuedAt: Date(timeIntervalSince1970: 1_767_225_600),
                        expiresAt: Date(timeIntervalSince1970: 1_767_229_200),
                        tripID: roleCase.tripID,
                        vehicleID: roleCase.vehicleID
                    ))
            #expect(claims.role == roleCase.role)
        }
    }

    @Test("a service account token lives at most an hour; a longer lifetime is refused")
    func lifetimeAtMostAnHour() throws {
        let key = try ServiceAccountKey(json: try TestServiceAccount().json())
        #expect(TokenMinter(serviceAccount: key).maximumLifetime == .seconds(3600))
        let shorter = TokenMinter(serviceAccount: key, lifetime: .seconds(600), clock: Self.wallClock())
        let claims = try shorter.claims(for: .server)
        #expect(claims.expiresAt?.timeIntervalSince(try #require(claims.issuedAt)) == 600)
        let longer = TokenMinter(serviceAccount: key, lifetime: .seconds(3601))
        let error = try #require(throws: JWTError.self) { try longer.mint(.server) }
        #expect(error.code == .invalidClaims)
        #expect(error.message == "a lifetime of 3601 seconds is longer than the 3600 seconds Fleet Engine accepts")
    }

    @Test(
        "a trip or vehicle id that is empty or \"*\" makes no consumer or driver token",
        arguments: [
            TokenRole.consumer(tripID: ""), .consumer(tripID: "*"), .driver(vehicleID: ""), .driver(vehicleID: "*"),
        ]
    )
    func refusesWildcardIDs(_ role: TokenRole) throws {
        let minter = TokenMinter(serviceAccount: try ServiceAccountKey(json: try TestServiceAccount().json()))
        #expect(throws: JWTError(code: .invalidClaims, message: "")) { try minter.mint(role) }
    }

    @Test("google-auth verifies server, consumer and driver tokens and decodes every documented field")
    func googleAuthVerifies() throws {
        let account = try TestServiceAccount()
        let key = try ServiceAccountKey(json: try account.json())
        let clock = Self.wallClock()
        let minter = TokenMinter(serviceAccount: key, clock: clock)
        let tokens = try Self.roles.map { try minter.mint($0.role) }
        let results = try GoogleAuthChecker.check(
            tokens, publicKeyPEM: key.publicKeyPEM, keyID: account.privateKeyID, audience: Self.audience)
        try #require(results.count == Self.roles.count)
        let issuedAt = clock.now().seconds
        for (roleCase, result) in zip(Self.roles, results) {
            #expect(result.error == nil, "\(roleCase.role): \(result.error ?? "")")
            let header = try #require(result.header)
            #expect(header.alg == "RS256")
            #expect(header.typ == "JWT")
            #expect(header.kid == account.privateKeyID)
            let claims = try #require(result.claims)
            #expect(claims.iss == account.clientEmail)
            #expect(claims.sub == account.clientEmail)
            #expect(claims.aud == Self.audience)
            #expect(claims.iat == issuedAt)
            #expect(claims.exp == issuedAt + 3600)
            #expect(claims.authorization == .init(tripid: roleCase.tripID, vehicleid: roleCase.vehicleID))
        }
    }

    @Test("google-auth refuses a token signed by another account's key under the same key id")
    func googleAuthRefusesOtherKey() throws {
        let account = try TestServiceAccount()
        let other = try TestServiceAccount()
        let forged = try ServiceAccountKey(json: try other.json(changing: ["private_key_id": account.privateKeyID]))
        let token = try TokenMinter(serviceAccount: forged, clock: Self.wallClock()).mint(.server)
        let results = try GoogleAuthChecker.check(
            [token], publicKeyPEM: account.publicKeyPEM, keyID: account.privateKeyID, audience: Self.audience)
        #expect(results.first?.error?.contains("Could not verify token signature") == true)
    }

    @Test("our verifier takes the key's verification key and accepts what it minted")
    func ourVerifierAccepts() throws {
        let key = try ServiceAccountKey(json: try TestServiceAccount().json())
        let clock = ManualTimeSource(start: Timestamp(seconds: 1_767_225_600, nanos: 0))
        let verifier = TokenVerifier(keys: [key.verificationKey], clock: clock)
        let minter = TokenMinter(serviceAccount: key, clock: clock)
        #expect(try verifier.verify(token: minter.mint(.server)).role == .server)
        #expect(
            try verifier.verify(token: minter.mint(.consumer(tripID: "trip-1"))).role == .consumer(tripID: "trip-1"))
        // A driver token names no trip: TripService has nothing to grant it.
        #expect(throws: JWTError(code: .missingTripID, message: "")) {
            try verifier.verify(token: minter.mint(.driver(vehicleID: "vehicle-7")))
        }
    }
}
