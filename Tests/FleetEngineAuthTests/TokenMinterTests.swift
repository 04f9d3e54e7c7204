import FleetEngineCodec
import Foundation
import Testing

@testable import FleetEngineAuth

/// The minter against tokens built independently in Python (and accepted there by google-auth),
/// byte for byte, and against our own verifier.
@Suite("Token minting")
struct TokenMinterTests {
    private func minter(for mintCase: AuthFixtures.MintCase) throws -> TokenMinter {
        let key: JWTSigningKey =
            mintCase.key == "rsa"
            ? try .rs256(privateKeyPEM: AuthFixtures.rsaPrivatePEM(), id: mintCase.keyID)
            : try .hs256(secret: AuthFixtures.hs256Secret(), id: mintCase.keyID)
        return TokenMinter(
            signingKey: key,
            issuer: mintCase.issuer,
            subject: mintCase.subject,
            audience: mintCase.audience,
            lifetime: .seconds(mintCase.lifetimeSeconds),
            clock: AuthTestClock(seconds: mintCase.now, nanos: 750_000_000)
        )
    }

    private func role(of mintCase: AuthFixtures.MintCase) throws -> TokenRole {
        mintCase.role == "server" ? .server : .consumer(tripID: try #require(mintCase.tripID))
    }

    static let caseNames = ["consumer-rs256", "server-rs256", "consumer-hs256", "server-hs256"]

    @Test("every minter fixture is covered by a test")
    func everyFixtureIsTested() throws {
        #expect(try AuthFixtures.mintCases().cases.map(\.name) == Self.caseNames)
    }

    @Test("the minter writes exactly the token Python built and google-auth accepted", arguments: caseNames)
    func mintsPythonsToken(_ name: String) throws {
        let mintCase = try #require(try AuthFixtures.mintCases().cases.first { $0.name == name })
        let token = try minter(for: mintCase).mint(role(of: mintCase))
        #expect(token == mintCase.token)
    }

    @Test("a minted token verifies with the signing key's verification key", arguments: caseNames)
    func mintedTokenVerifies(_ name: String) throws {
        let mintCase = try #require(try AuthFixtures.mintCases().cases.first { $0.name == name })
        let minter = try minter(for: mintCase)
        let verifier = TokenVerifier(
            keys: [minter.signingKey.verificationKey],
            audience: mintCase.audience,
            leeway: .zero,
            clock: AuthTestClock(seconds: mintCase.now + mintCase.lifetimeSeconds - 1)
        )
        let claims = try verifier.verify(authorization: "Bearer " + minter.mint(role(of: mintCase)))
        #expect(
            claims
                == FleetEngineClaims(
                    issuer: mintCase.issuer,
                    subject: mintCase.subject,
                    audience: [mintCase.audience],
                    issuedAt: Date(timeIntervalSince1970: TimeInterval(mintCase.now)),
                    expiresAt: Date(timeIntervalSince1970: TimeInterval(mintCase.now + mintCase.lifetimeSeconds)),
                    tripID: mintCase.role == "server" ? "*" : mintCase.tripID,
                    vehicleID: mintCase.role == "server" ? "*" : nil
                )
        )
        #expect(claims.role == (try role(of: mintCase)))
    }

    @Test("the defaults are one hour, fleettrips@localhost and Fleet Engine's audience")
    func defaults() throws {
        let minter = TokenMinter(signingKey: try TokenForge.hmacSigningKey(), clock: AuthTestClock(seconds: 1000))
        let claims = try minter.claims(for: .consumer(tripID: "trip-9"))
        #expect(
            claims
                == FleetEngineClaims(
                    issuer: "fleettrips@localhost",
                    subject: "fleettrips@localhost",
                    audience: ["https://fleetengine.googleapis.com/"],
                    issuedAt: Date(timeIntervalSince1970: 1000),
                    expiresAt: Date(timeIntervalSince1970: 4600),
                    tripID: "trip-9"
                )
        )
        let token = try minter.mint(.server)
        let parsed = try JSONWebToken(compact: token)
        #expect(parsed.header == JSONWebToken.Header(algorithm: .hs256, keyID: "hs-key-1", type: "JWT"))
        #expect(
            String(decoding: parsed.payload, as: UTF8.self)
                == #"{"aud":"https://fleetengine.googleapis.com/","authorization":{"tripid":"*","vehicleid":"*"},"#
                + #""exp":4600,"iat":1000,"iss":"fleettrips@localhost","sub":"fleettrips@localhost"}"#
        )
    }

    enum BadRequest: String, CaseIterable, Sendable {
        case emptyTripID, zeroLifetime, subSecondLifetime, negativeLifetime
    }

    @Test("a token that cannot be valid is not minted", arguments: BadRequest.allCases)
    func refusesBadRequest(_ request: BadRequest) throws {
        var minter = TokenMinter(signingKey: try TokenForge.hmacSigningKey(), clock: AuthTestClock(seconds: 1000))
        var role = TokenRole.server
        switch request {
        case .emptyTripID: role = .consumer(tripID: "")
        case .zeroLifetime: minter.lifetime = .zero
        case .subSecondLifetime: minter.lifetime = .milliseconds(999)
        case .negativeLifetime: minter.lifetime = .seconds(-60)
        }
        #expect(throws: JWTError(code: .invalidClaims, message: "")) { try minter.mint(role) }
    }

    enum BadKey: String, CaseIterable, Sendable {
        case shortSecret, emptySecret, publicKeyAsPrivateKey, privateKeyAsPublicKey, garbagePEM, emptyPEM
    }

    @Test("a key that cannot be used is refused when it is made", arguments: BadKey.allCases)
    func refusesBadKey(_ bad: BadKey) throws {
        let expected = JWTError(code: .invalidKey, message: "")
        switch bad {
        case .shortSecret:
            #expect(throws: expected) { try JWTSigningKey.hs256(secret: String(repeating: "s", count: 31)) }
            #expect(throws: expected) { try JWTKey.hs256(secret: [UInt8](repeating: 1, count: 31)) }
        case .emptySecret:
            #expect(throws: expected) { try JWTSigningKey.hs256(secret: "") }
            #expect(throws: expected) { try JWTKey.hs256(secret: "") }
        case .publicKeyAsPrivateKey:
            #expect(throws: expected) { try JWTSigningKey.rs256(privateKeyPEM: AuthFixtures.rsaPublicPEM()) }
        case .privateKeyAsPublicKey:
            #expect(throws: expected) { try JWTKey.rs256(publicKeyPEM: AuthFixtures.rsaPrivatePEM()) }
        case .garbagePEM:
            let pem = "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n"
            #expect(throws: expected) { try JWTKey.rs256(publicKeyPEM: pem) }
        case .emptyPEM:
            #expect(throws: expected) { try JWTKey.rs256(publicKeyPEM: "") }
            #expect(throws: expected) { try JWTSigningKey.rs256(privateKeyPEM: "") }
        }
    }

    @Test("an RS256 signing key's public half is the committed public key")
    func publicHalfMatchesFixture() throws {
        let key = try TokenForge.rsaSigningKey()
        #expect(key.algorithm == .rs256)
        #expect(key.verificationKey.algorithm == .rs256)
        #expect(key.verificationKey.id == "test-key-1")
        #expect(
            key.publicKeyPEM?.trimmingCharacters(in: .whitespacesAndNewlines)
                == (try AuthFixtures.rsaPublicPEM()).trimmingCharacters(in: .whitespacesAndNewlines)
        )
        #expect(try TokenForge.hmacSigningKey().publicKeyPEM == nil)
    }

    @Test("printing keys, a verifier or a minter shows ids and algorithms, never the secret")
    func printingHidesSecrets() throws {
        let secret = try AuthFixtures.hs256Secret()
        let signingKey = try TokenForge.hmacSigningKey()
        #expect("\(signingKey)" == #"HS256 key "hs-key-1""#)
        #expect("\(try TokenForge.rsaSigningKey(id: nil))" == "RS256 key without id")
        let verifier = try TokenForge.verifier()
        let minter = TokenMinter(signingKey: signingKey)
        #expect(String(reflecting: verifier).contains(#"HS256 key "hs-key-1""#))
        for text in [String(reflecting: verifier), String(describing: minter), String(reflecting: signingKey)] {
            #expect(!text.contains(secret))
        }
    }
}
