import FleetEngineCodec
import Foundation
import Testing

@testable import FleetEngineAuth

/// The files Scripts/make-auth-fixtures.py writes with google-auth and Python's hmac.
///
/// Read with `JSONDecoder` into plain structs, so that nothing of the code under test stands
/// between Python's output and the expectations.
enum AuthFixtures {
    /// One token of google-auth-tokens.json.
    struct SignedToken: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var algorithm: String
        var token: String
        /// The claims the emulator must return; present for tokens it must accept.
        var claims: ExpectedClaims?
        /// The status and reason the emulator must refuse with; present for the others.
        var rejection: Rejection?

        var testDescription: String { name }
    }

    /// The claims as Python wrote them into the token.
    struct ExpectedClaims: Decodable, Sendable {
        var iss: String
        var sub: String
        var aud: [String]
        var iat: Int64
        var exp: Int64
        var tripid: String?
        var vehicleid: String?

        var asClaims: FleetEngineClaims {
            FleetEngineClaims(
                issuer: iss,
                subject: sub,
                audience: aud,
                issuedAt: Date(timeIntervalSince1970: TimeInterval(iat)),
                expiresAt: Date(timeIntervalSince1970: TimeInterval(exp)),
                tripID: tripid,
                vehicleID: vehicleid
            )
        }
    }

    struct Rejection: Decodable, Sendable {
        var code: String
        var reason: String
    }

    struct GoogleAuthDocument: Decodable, Sendable {
        var now: Int64
        var leeway: Int64
        var audience: String
        var rsaKeyID: String
        var tokens: [SignedToken]
    }

    /// One case of minted-expected.json: the minter's inputs and the token it must produce.
    struct MintCase: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        /// `rsa` or `hs256`.
        var key: String
        var keyID: String?
        /// `consumer` or `server`.
        var role: String
        var tripID: String?
        var issuer: String
        var subject: String
        var audience: String
        var lifetimeSeconds: Int64
        var now: Int64
        var token: String

        var testDescription: String { name }
    }

    struct MintDocument: Decodable, Sendable {
        var rsaKeyID: String
        var cases: [MintCase]
    }

    /// The text of a file under Fixtures/auth.
    static func text(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let url = try #require(
            Bundle.module.resourceURL?.appendingPathComponent("Fixtures/auth/\(file)"),
            sourceLocation: sourceLocation
        )
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func googleAuth() throws -> GoogleAuthDocument {
        try JSONDecoder().decode(GoogleAuthDocument.self, from: Data(text("google-auth-tokens.json").utf8))
    }

    static func signedToken(named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignedToken
    {
        try #require(
            try googleAuth().tokens.first { $0.name == name },
            "no fixture token \(name)",
            sourceLocation: sourceLocation
        )
    }

    static func mintCases() throws -> MintDocument {
        try JSONDecoder().decode(MintDocument.self, from: Data(text("minted-expected.json").utf8))
    }

    static func rsaPublicPEM() throws -> String { try text("test-rsa-public.pem") }
    static func rsaPrivatePEM() throws -> String { try text("test-rsa-private.pem") }
    static func otherRSAPrivatePEM() throws -> String { try text("other-rsa-private.pem") }
    static func hs256Secret() throws -> String { try text("hs256-secret.txt") }
}

/// A clock that always shows the same second, so that every time check is exact.
struct AuthTestClock: TimeSource {
    var seconds: Int64
    var nanos: Int32 = 0

    func now() -> Timestamp {
        var stamp = Timestamp()
        stamp.seconds = seconds
        stamp.nanos = nanos
        return stamp
    }
}
