import Foundation
import Testing

@testable import FleetEngineAuth

/// base64url (RFC 7515 section 2), the JOSE header and the Bearer header, taken apart on their own.
@Suite("JWT encoding")
struct JWTEncodingTests {
    @Test(
        "base64url round-trips RFC 4648 section 10's vectors without padding",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
    )
    func base64URLVectors(_ plain: String, _ encoded: String) throws {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(try Base64URL.decode(Substring(encoded), part: "test") == Array(plain.utf8))
    }

    @Test("base64url uses - and _ where standard base64 has + and /")
    func urlAlphabet() throws {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(try Base64URL.decode("-_-_", part: "test") == [0xFB, 0xFF, 0xBF])
        let all = (0...255).map { UInt8($0) }
        #expect(try Base64URL.decode(Substring(Base64URL.encode(all)), part: "test") == all)
    }

    @Test(
        "base64url refuses padding, the standard alphabet, whitespace, a lone character and stray bits",
        arguments: ["Zg==", "Zm8=", "+/+/", "Zm9v/A", "Zm 9v", "Zm9v\n", "Z", "Zm9vY", "Zh", "Zm9", "Zm-", "é"]
    )
    func base64URLRefuses(_ text: String) {
        #expect(throws: JWTError(code: .malformedToken, message: "")) {
            try Base64URL.decode(Substring(text), part: "test")
        }
    }

    @Test("the header's alg, kid and typ are read; unknown members are ignored")
    func headerFields() throws {
        let token = try TokenForge.token(
            header: #"{"alg":"RS256","kid":"k-9","typ":"JWT","x5t":"ignored"}"#,
            payload: "{}",
            key: nil,
            signature: [0xAB]
        )
        let parsed = try JSONWebToken(compact: token)
        #expect(parsed.header == JSONWebToken.Header(algorithm: .rs256, keyID: "k-9", type: "JWT"))
        #expect(parsed.signature == [0xAB])
        #expect(parsed.signingInput == Array(token.split(separator: ".")[0...1].joined(separator: ".").utf8))
        #expect(try parsed.claims() == FleetEngineClaims())
    }

    @Test("claims accept aud as a string or an array, fractional times, and unknown claims")
    func claimShapes() throws {
        let claims = try FleetEngineClaims(
            json: Array(
                #"{"aud":["a","b"],"exp":1767229200.5,"nbf":1767225600,"jti":"x","authorization":{"tripid":"t","x":1}}"#
                    .utf8)
        )
        #expect(claims.audience == ["a", "b"])
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_767_229_200.5))
        #expect(claims.notBefore == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(claims.role == .consumer(tripID: "t"))
        #expect(try FleetEngineClaims(json: Array(#"{"aud":"a"}"#.utf8)).audience == ["a"])
    }

    @Test(
        "claims of the wrong JSON type, or times no calendar holds, are malformed",
        arguments: [
            #"{"exp":true}"#, #"{"exp":"1"}"#, #"{"iat":null,"exp":[1]}"#, #"{"aud":[1]}"#, #"{"iss":5}"#,
            #"{"exp":1e308}"#, #"{"iat":-1e20}"#, #"{"nbf":253402300800}"#, #"{"exp":1e400}"#,
            #"{"authorization":"trip-1"}"#, #"{"authorization":{"tripid":7}}"#, "[]", "", "{", #"{"a":1}x"#,
        ]
    )
    func wrongClaimTypes(_ json: String) {
        #expect(throws: JWTError(code: .malformedToken, message: "")) {
            try FleetEngineClaims(json: Array(json.utf8))
        }
    }

    @Test(
        "a member name repeated within one object is malformed, in the claims as in the header",
        arguments: [
            #"{"exp":1,"exp":2}"#, #"{"authorization":{"tripid":"t","tripid":"*"}}"#,
            #"{"authorization":{"tripid":"t","trip\u0069d":"*"}}"#, #"{"x":[{"a":{"b":1,"b":2}}]}"#,
            "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}",
        ]
    )
    func repeatedMemberNames(_ json: String) {
        #expect(throws: JWTError(code: .malformedToken, message: "")) {
            try FleetEngineClaims(json: Array(json.utf8))
        }
        let header = #"{"alg":"RS256","p":"# + json + "}"
        #expect(throws: JWTError(code: .malformedToken, message: "")) {
            try JSONWebToken(compact: TokenForge.token(header: header, payload: "{}", key: nil, signature: [1]))
        }
    }

    @Test("the same member name in different objects, or as a value, is not repeated")
    func sameNameInDifferentObjects() throws {
        let json =
            #"{"authorization":{"tripid":"t"},"x":[{"tripid":"a"},{"tripid":"b","c":"tripid"}],"tripid":"exp","#
            + #""s":"\",\"exp\":","exp":1767229200}"#
        let claims = try FleetEngineClaims(json: Array(json.utf8))
        #expect(claims.tripID == "t")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_767_229_200))
    }

    @Test(
        "a Bearer header yields its token whatever the scheme's case and the spaces around it",
        arguments: ["Bearer abc.def.ghi", "bearer abc.def.ghi", "BEARER   abc.def.ghi", " Bearer\tabc.def.ghi \t"]
    )
    func bearerToken(_ header: String) throws {
        #expect(try TokenVerifier.bearerToken(from: header) == "abc.def.ghi")
    }

    @Test("the role follows the tripid claim")
    func roles() {
        #expect(FleetEngineClaims(tripID: "*").role == .server)
        #expect(FleetEngineClaims(tripID: "*").isServerToken)
        #expect(FleetEngineClaims(tripID: "trip-1").role == .consumer(tripID: "trip-1"))
        #expect(!FleetEngineClaims(tripID: "trip-1").isServerToken)
        #expect(FleetEngineClaims(tripID: "").role == nil)
        #expect(FleetEngineClaims(vehicleID: "*").role == nil)
    }
}
