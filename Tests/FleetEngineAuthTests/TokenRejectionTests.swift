import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

@testable import FleetEngineAuth

/// Every way a call's `authorization` header can fail authentication, each with the exact status
/// and `ErrorInfo` reason the emulator must answer.
@Suite("Token rejection")
struct TokenRejectionTests {
    /// A header value the verifier must refuse.
    enum Forgery: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case noHeader, emptyHeader, bearerWithoutToken
        case basicScheme, tokenWithoutScheme
        case onePart, twoParts, fourParts, fiveParts, emptyParts
        case paddedSignature, standardAlphabet, whitespaceInToken, oneCharacterOver, nonCanonicalBits
        case headerNotJSON, headerIsArray, headerWithoutAlg, algIsNumber, criticalExtension
        case signedPayloadNotJSON, signedExpIsString, signedAudIsNumber, signedPayloadIsArray
        case duplicateAlg, duplicateTripID, duplicateEscapedTripID, duplicateExp
        case algNone, algNoneCapitalised, algLowercase, algES256
        case hs256WithRSAPublicKeyAsSecretNamingRSAKey, unknownKeyID
        case tamperedPayload, tamperedSignature, truncatedSignature, emptySignature, otherRSAKey, wrongHMACSecret
        case hs256WithRSAPublicKeyAsSecret
        case expired, expiredAtLeewayEdge, notBeforeInFuture, issuedInFuture, missingExpiration
        case wrongAudience, missingAudience
        case noAuthorizationClaim, emptyTripID, vehicleOnly

        var testDescription: String { rawValue }

        /// The reason the `ErrorInfo` must carry.
        var reason: String {
            switch self {
            case .noHeader, .emptyHeader, .bearerWithoutToken: "MISSING_TOKEN"
            case .basicScheme, .tokenWithoutScheme: "UNSUPPORTED_AUTHORIZATION_SCHEME"
            case .onePart, .twoParts, .fourParts, .fiveParts, .emptyParts, .paddedSignature, .standardAlphabet,
                .whitespaceInToken, .oneCharacterOver, .nonCanonicalBits, .headerNotJSON, .headerIsArray,
                .headerWithoutAlg, .algIsNumber, .criticalExtension, .signedPayloadNotJSON, .signedExpIsString,
                .signedAudIsNumber, .signedPayloadIsArray, .duplicateAlg, .duplicateTripID, .duplicateEscapedTripID,
                .duplicateExp:
                "MALFORMED_TOKEN"
            case .algNone, .algNoneCapitalised, .algLowercase, .algES256: "UNSUPPORTED_ALGORITHM"
            case .hs256WithRSAPublicKeyAsSecretNamingRSAKey: "ALGORITHM_MISMATCH"
            case .unknownKeyID: "UNKNOWN_KEY_ID"
            case .tamperedPayload, .tamperedSignature, .truncatedSignature, .emptySignature, .otherRSAKey,
                .wrongHMACSecret, .hs256WithRSAPublicKeyAsSecret:
                "INVALID_SIGNATURE"
            case .expired, .expiredAtLeewayEdge: "TOKEN_EXPIRED"
            case .notBeforeInFuture, .issuedInFuture: "TOKEN_NOT_YET_VALID"
            case .missingExpiration: "MISSING_EXPIRATION_CLAIM"
            case .wrongAudience, .missingAudience: "AUDIENCE_MISMATCH"
            case .noAuthorizationClaim, .emptyTripID, .vehicleOnly: "MISSING_TRIP_ID_CLAIM"
            }
        }

        /// The `authorization` header value.
        func header() throws -> String? {
            switch self {
            case .noHeader: return nil
            case .emptyHeader: return "  "
            case .bearerWithoutToken: return "Bearer   "
            case .basicScheme: return "Basic dXNlcjpwYXNzd29yZA=="
            case .tokenWithoutScheme: return try Self.valid()
            default: return "Bearer " + (try token())
            }
        }

        private static let rsaHeader = #"{"alg":"RS256","kid":"test-key-1","typ":"JWT"}"#

        private static func valid() throws -> String {
            try TokenForge.token(header: rsaHeader, payload: TokenForge.claims(), key: TokenForge.rsaSigningKey())
        }

        private static func signed(_ payload: String) throws -> String {
            try TokenForge.token(header: rsaHeader, payload: payload, key: TokenForge.rsaSigningKey())
        }

        private static func unsigned(header: String) throws -> String {
            try TokenForge.token(header: header, payload: TokenForge.claims(), key: nil, signature: [1, 2, 3])
        }

        private func token() throws -> String {
            let valid = try Self.valid()
            let parts = valid.split(separator: ".").map(String.init)
            switch self {
            case .onePart: return parts[0]
            case .twoParts: return parts[0] + "." + parts[1]
            case .fourParts: return valid + "." + parts[2]
            case .fiveParts: return [parts[0], "", parts[1], parts[2], "AAAA"].joined(separator: ".")
            case .emptyParts: return ".."
            case .paddedSignature:
                // A 256-byte signature leaves one byte over, so standard base64 would pad it with "==".
                return valid + "=="
            case .standardAlphabet:
                return parts[0] + "." + parts[1] + "."
                    + parts[2].replacingOccurrences(of: "-", with: "+")
                    .replacingOccurrences(of: "_", with: "/") + "+/"
            case .whitespaceInToken: return parts[0] + "." + parts[1] + ". " + parts[2]
            case .oneCharacterOver:
                var payload = parts[1]
                while payload.count % 4 != 1 { payload += "A" }
                return parts[0] + "." + payload + "." + parts[2]
            case .nonCanonicalBits:
                // 256 signature bytes take 342 characters; the last carries 4 unused bits, which
                // "h" (0b100001) sets where the canonical "g" (0b100000) would not.
                return parts[0] + "." + parts[1] + "." + parts[2].dropLast(2) + "Zh"
            case .headerNotJSON:
                return try TokenForge.token(header: "not json", payload: TokenForge.claims(), key: nil, signature: [1])
            case .headerIsArray: return try Self.unsigned(header: #"["RS256"]"#)
            case .headerWithoutAlg: return try Self.unsigned(header: #"{"typ":"JWT"}"#)
            case .algIsNumber: return try Self.unsigned(header: #"{"alg":256}"#)
            case .criticalExtension: return try Self.unsigned(header: #"{"alg":"RS256","crit":["exp"],"exp":1}"#)
            case .signedPayloadNotJSON: return try Self.signed("trip-1")
            case .signedExpIsString:
                return try Self.signed(#"{"aud":"https://fleetengine.googleapis.com/","exp":"1767229200"}"#)
            case .signedAudIsNumber: return try Self.signed(#"{"aud":7,"exp":1767229200}"#)
            case .signedPayloadIsArray: return try Self.signed("[1767229200]")
            case .duplicateAlg:
                // Signed, so only a parser that takes the first "alg" sees RS256; Python's json,
                // as RFC 7515 section 4 allows, takes the last one: "none".
                return try TokenForge.token(
                    header: #"{"alg":"RS256","kid":"test-key-1","alg":"none"}"#,
                    payload: TokenForge.claims(),
                    key: TokenForge.rsaSigningKey()
                )
            case .duplicateTripID, .duplicateEscapedTripID:
                // A consumer token to a parser that takes the first "tripid", a server token to one
                // that takes the last (RFC 7519 section 4 allows only the last, or a refusal).
                let second = self == .duplicateTripID ? "tripid" : #"trip\u0069d"#
                let claims = TokenForge.claims().replacingOccurrences(
                    of: #""tripid":"trip-1""#, with: #""tripid":"trip-1","\#(second)":"*""#)
                return try Self.signed(claims)
            case .duplicateExp:
                let claims = TokenForge.claims().replacingOccurrences(
                    of: #""exp":1767229200"#, with: #""exp":1767229200,"exp":1767225000"#)
                return try Self.signed(claims)
            case .algNone:
                return try TokenForge.token(header: #"{"alg":"none"}"#, payload: TokenForge.claims(), key: nil)
            case .algNoneCapitalised: return try Self.unsigned(header: #"{"alg":"None"}"#)
            case .algLowercase: return try Self.unsigned(header: #"{"alg":"rs256","kid":"test-key-1"}"#)
            case .algES256: return try Self.unsigned(header: #"{"alg":"ES256"}"#)
            case .hs256WithRSAPublicKeyAsSecretNamingRSAKey, .hs256WithRSAPublicKeyAsSecret:
                // The classic algorithm confusion: HMAC keyed with the RSA public key's PEM text,
                // which a verifier that takes its key bytes as "the secret" would accept.
                let kid = self == .hs256WithRSAPublicKeyAsSecret ? "" : #","kid":"test-key-1""#
                return try TokenForge.token(
                    header: #"{"alg":"HS256"\#(kid)}"#,
                    payload: TokenForge.claims(),
                    key: JWTSigningKey.hs256(secret: AuthFixtures.rsaPublicPEM())
                )
            case .unknownKeyID:
                return try TokenForge.token(
                    header: #"{"alg":"RS256","kid":"retired-key"}"#,
                    payload: TokenForge.claims(),
                    key: TokenForge.rsaSigningKey()
                )
            case .tamperedPayload:
                // A valid server token's claims under a consumer token's signature.
                let server = try Self.signed(TokenForge.claims(tripID: "*"))
                return parts[0] + "." + server.split(separator: ".")[1] + "." + parts[2]
            case .tamperedSignature:
                var signature = try Base64URL.decode(Substring(parts[2]), part: "signature")
                signature[signature.count / 2] ^= 0x01
                return parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
            case .truncatedSignature:
                let signature = try Base64URL.decode(Substring(parts[2]), part: "signature")
                return parts[0] + "." + parts[1] + "." + Base64URL.encode(signature.dropLast())
            case .emptySignature: return parts[0] + "." + parts[1] + "."
            case .otherRSAKey:
                return try TokenForge.token(
                    header: Self.rsaHeader,
                    payload: TokenForge.claims(),
                    key: JWTSigningKey.rs256(privateKeyPEM: AuthFixtures.otherRSAPrivatePEM())
                )
            case .wrongHMACSecret:
                return try TokenForge.token(
                    header: #"{"alg":"HS256","kid":"hs-key-1"}"#,
                    payload: TokenForge.claims(),
                    key: JWTSigningKey.hs256(secret: String(repeating: "x", count: 32))
                )
            case .expired:
                return try Self.signed(
                    TokenForge.claims(issuedAt: TokenForge.now - 7200, expiresAt: TokenForge.now - 31))
            case .expiredAtLeewayEdge:
                // RFC 7519 section 4.1.4: valid only *before* exp; with 30 s of leeway, exp + 30 = now is late.
                return try Self.signed(
                    TokenForge.claims(issuedAt: TokenForge.now - 7200, expiresAt: TokenForge.now - 30))
            case .notBeforeInFuture: return try Self.signed(TokenForge.claims(notBefore: TokenForge.now + 31))
            case .issuedInFuture:
                return try Self.signed(
                    TokenForge.claims(issuedAt: TokenForge.now + 31, expiresAt: TokenForge.now + 3600))
            case .missingExpiration: return try Self.signed(TokenForge.claims(expiresAt: nil))
            case .wrongAudience:
                return try Self.signed(TokenForge.claims(audience: "https://fleetengine.googleapis.com"))
            case .missingAudience: return try Self.signed(TokenForge.claims(audience: nil))
            case .noAuthorizationClaim: return try Self.signed(TokenForge.claims(tripID: nil))
            case .emptyTripID: return try Self.signed(TokenForge.claims(tripID: ""))
            case .vehicleOnly: return try Self.signed(TokenForge.claims(tripID: nil, vehicleID: "vehicle-1"))
            case .noHeader, .emptyHeader, .bearerWithoutToken, .basicScheme, .tokenWithoutScheme:
                return ""
            }
        }
    }

    @Test("a refused token is UNAUTHENTICATED with the reason's ErrorInfo", arguments: Forgery.allCases)
    func refusedTokenIsUnauthenticated(_ forgery: Forgery) throws {
        let header = try forgery.header()
        let verifier = try TokenForge.verifier()
        let error = try #require(throws: FleetEngineError.self) { try verifier.verify(authorization: header) }
        #expect(error.code == .unauthenticated)
        let info = try #require(error.authErrorInfo)
        #expect(info.reason == forgery.reason)
        #expect(info.domain == "fleetengine.googleapis.com")
        #expect(info.metadata["service"] == "fleetengine.googleapis.com")
        #expect((error.cause as? JWTError)?.code.reason == forgery.reason)
        if let header {
            // A token is a credential: no part of it long enough to matter may reach a message or a log.
            let credential = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : header
            for part in credential.split(separator: ".") where part.count >= 12 {
                #expect(!error.message.contains(part))
                #expect(!error.description.contains(part))
            }
        }
    }

    @Test(
        "a verifier holding only an RSA key refuses every HS256 token, whatever secret made it",
        arguments: [nil, "test-key-1", "hs-key-1"]
    )
    func rsaOnlyVerifierRefusesHMAC(_ keyID: String?) throws {
        let verifier = TokenVerifier(
            keys: [try .rs256(publicKeyPEM: AuthFixtures.rsaPublicPEM())],
            clock: AuthTestClock(seconds: TokenForge.now)
        )
        let pemBody = try AuthFixtures.rsaPublicPEM().split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let publicKeyDER = Array(try #require(Data(base64Encoded: pemBody)))
        // The PEM text and the DER bytes are the two "secrets" a confused verifier could be fooled with.
        for secret in [Array(try AuthFixtures.rsaPublicPEM().utf8), publicKeyDER] {
            let kid = keyID.map { #","kid":"\#($0)""# } ?? ""
            let token = try TokenForge.token(
                header: #"{"alg":"HS256"\#(kid)}"#,
                payload: TokenForge.claims(),
                key: JWTSigningKey.hs256(secret: secret)
            )
            #expect(throws: JWTError(code: .algorithmMismatch, message: "")) { try verifier.verify(token: token) }
        }
    }

    @Test("the RFC 7515 appendix A.1 token verifies but grants nothing on TripService")
    func rfc7515ExampleHasNoTripID() throws {
        let token =
            "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let secret = try Base64URL.decode(
            "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow",
            part: "k"
        )
        let verifier = TokenVerifier(
            keys: [try .hs256(secret: secret)],
            audience: nil,
            clock: AuthTestClock(seconds: 1_300_819_379)
        )
        // The signature and the times pass; the example's claims name no trip.
        #expect(throws: JWTError(code: .missingTripID, message: "")) { try verifier.verify(token: token) }
        let parsed = try JSONWebToken(compact: token)
        #expect(parsed.header == JSONWebToken.Header(algorithm: .hs256, keyID: nil, type: "JWT"))
        let claims = try parsed.claims()
        #expect(claims.issuer == "joe")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_300_819_380))
        // One second later the same token has expired.
        var late = verifier
        late.leeway = .zero
        late.clock = AuthTestClock(seconds: 1_300_819_380)
        #expect(throws: JWTError(code: .expired, message: "")) { try late.verify(token: token) }
    }

    @Test(
        "a value the token chose is quoted by its first 64 Unicode scalars, however many combine into one character"
    )
    func quotedValuesAreCut() throws {
        // One grapheme cluster of 4,001 scalars: cut by Characters, all of it would be quoted, in the
        // message and again in the ErrorInfo, and the trailers would outgrow what clients accept.
        let algorithm = "a" + String(repeating: "\u{301}", count: 4_000)
        let token = try TokenForge.token(header: #"{"alg":"\#(algorithm)"}"#, payload: "{}", key: nil)
        let error = try #require(throws: FleetEngineError.self) {
            try TokenForge.verifier().verify(authorization: "Bearer " + token)
        }
        let quoted = "a" + String(repeating: "\u{301}", count: 63) + "…"
        #expect(error.authErrorInfo?.metadata["algorithm"]?.unicodeScalars.elementsEqual(quoted.unicodeScalars) == true)
        #expect(
            error.message.unicodeScalars.elementsEqual(
                "the token's algorithm \"\(quoted)\" is not accepted: only HS256 and RS256 are".unicodeScalars))
    }

    @Test("a token expiring one second inside the leeway is still accepted")
    func leewayKeepsTokenAlive() throws {
        let token = try TokenForge.token(
            header: #"{"alg":"HS256","kid":"hs-key-1"}"#,
            payload: TokenForge.claims(
                issuedAt: TokenForge.now + 30,
                expiresAt: TokenForge.now - 29,
                notBefore: TokenForge.now + 30
            ),
            key: TokenForge.hmacSigningKey()
        )
        let claims = try TokenForge.verifier().verify(token: token)
        #expect(claims.tripID == "trip-1")
        #expect(throws: JWTError(code: .expired, message: "")) {
            try TokenForge.verifier(leeway: .zero).verify(token: token)
        }
    }
}
