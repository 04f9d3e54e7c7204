import Foundation

@testable import FleetEngineAuth

/// Builds tokens from raw header and payload text, so that tests can make every malformed, altered
/// or unusual token a client or an attacker could send.
enum TokenForge {
    /// 2026-01-01T00:00:00Z, the issue time of the forged tokens.
    static let issuedAt: Int64 = 1_767_225_600
    /// The tests' clock: one minute after ``issuedAt``.
    static let now: Int64 = issuedAt + 60
    static let rsaKeyID = "test-key-1"
    static let hmacKeyID = "hs-key-1"
    static let audience = "https://fleetengine.googleapis.com/"

    /// `base64url(header).base64url(payload).base64url(signature)`, signed with `key` when given
    /// (over exactly the first two parts, as RFC 7515 section 5.1 says), otherwise with `signature`.
    static func token(header: String, payload: String, key: JWTSigningKey?, signature: [UInt8] = []) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let bytes = try key.map { key throws(JWTError) in try key.sign(Array(input.utf8)) } ?? signature
        return input + "." + Base64URL.encode(bytes)
    }

    /// A Fleet Engine claims set as JSON text, with fields left out when nil.
    static func claims(
        tripID: String? = "trip-1",
        vehicleID: String? = nil,
        audience: String? = TokenForge.audience,
        issuedAt: Int64? = TokenForge.issuedAt,
        expiresAt: Int64? = TokenForge.issuedAt + 3600,
        notBefore: Int64? = nil
    ) -> String {
        var members = ["\"iss\":\"forge@test\"", "\"sub\":\"forge@test\""]
        if let audience { members.append("\"aud\":\"\(audience)\"") }
        if let issuedAt { members.append("\"iat\":\(issuedAt)") }
        if let expiresAt { members.append("\"exp\":\(expiresAt)") }
        if let notBefore { members.append("\"nbf\":\(notBefore)") }
        var authorization: [String] = []
        if let tripID { authorization.append("\"tripid\":\"\(tripID)\"") }
        if let vehicleID { authorization.append("\"vehicleid\":\"\(vehicleID)\"") }
        if !authorization.isEmpty { members.append("\"authorization\":{\(authorization.joined(separator: ","))}") }
        return "{\(members.joined(separator: ","))}"
    }

    static func rsaSigningKey(id: String? = rsaKeyID) throws -> JWTSigningKey {
        try JWTSigningKey.rs256(privateKeyPEM: AuthFixtures.rsaPrivatePEM(), id: id)
    }

    static func hmacSigningKey(id: String? = hmacKeyID) throws -> JWTSigningKey {
        try JWTSigningKey.hs256(secret: AuthFixtures.hs256Secret(), id: id)
    }

    /// The verifier most tests use: the RSA test key as `test-key-1` and the HS256 test secret as
    /// `hs-key-1`, Fleet Engine's audience, 30 s of leeway, the clock at ``now``.
    static func verifier(leeway: Duration = .seconds(30)) throws -> TokenVerifier {
        TokenVerifier(
            keys: [
                try JWTKey.rs256(publicKeyPEM: AuthFixtures.rsaPublicPEM(), id: rsaKeyID),
                try JWTKey.hs256(secret: AuthFixtures.hs256Secret(), id: hmacKeyID),
            ],
            audience: audience,
            leeway: leeway,
            clock: AuthTestClock(seconds: now)
        )
    }
}
