import CaptureFuzzing
import Crypto
import FleetEngineAuth
import FleetEngineCodec
import Foundation

/// The verifier's clock: a fixed instant, so that a token's times decide alone whether it is valid.
struct FixedTime: TimeSource {
    static let seconds: Int64 = 1_800_000_000
    func now() -> Timestamp {
        var stamp = Timestamp()
        stamp.seconds = Self.seconds
        return stamp
    }
}

/// The secret of the one key the verifier holds (a fixed test key, not a credential).
let trustedSecret = Array("fuzzing-key-trusted-by-the-verifier-0001".utf8)
/// The secret of a key the verifier does not hold: nothing it signs may be accepted.
let foreignSecret = Array("fuzzing-key-the-verifier-never-saw-00002".utf8)

let trustedKey = makeSigningKey(trustedSecret)
let foreignKey = makeSigningKey(foreignSecret)
let verifier = TokenVerifier(keys: [trustedKey.verificationKey], leeway: .seconds(30), clock: FixedTime())

func makeSigningKey(_ secret: [UInt8]) -> JWTSigningKey {
    do {
        return try JWTSigningKey.hs256(secret: secret)
    } catch {
        fail("a 40-byte HS256 secret was refused: \(error)")
    }
}

/// One libFuzzer run. Byte 0 picks what the rest is:
///
/// - 0: a token's text, through `JSONWebToken(compact:)` and `TokenVerifier.verify(token:)`;
/// - 1: a claims set (the payload's JSON), signed by the trusted key or, when byte 1 is odd, by a
///   key the verifier does not hold, then verified;
/// - 2: byte 1 and 2 say where and what to change in a token the trusted key signed for the trip
///   named by the rest; a changed token must be refused.
///
/// Checks: a token that parses spells each of its parts in the one canonical base64url form of its
/// bytes, and signs exactly its first two parts; an error is typed, has a message and never shows the
/// token's signature; the verifier accepts only HS256 tokens whose signature is the trusted key's HMAC
/// of their signing input (worked out here with swift-crypto), whose times are valid at the fixed
/// clock, whose audience is Fleet Engine's and which name a trip; claims that parse come back the same
/// from their own JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let mode = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    switch mode % 3 {
    case 0:
        checkToken(String(decoding: rest, as: UTF8.self))
    case 1:
        checkSignedClaims(Array(rest.dropFirst()), signer: rest.first.map { $0 & 1 == 1 } ?? false)
    default:
        checkAlteredToken(rest)
    }
    return 0
}

/// Parses and verifies `text`, checking what each accepts against the token's own parts.
func checkToken(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    do throws(JWTError) {
        let token = try JSONWebToken(compact: text)
        guard parts.count == 3 else { fail("a token of \(parts.count) parts parsed") }
        // The header's bytes are not kept; its characters are checked.
        let spelled: [(Substring, [UInt8]?)] = [
            (parts[0], nil), (parts[1], token.payload), (parts[2], token.signature),
        ]
        for (part, bytes) in spelled {
            if let bytes, base64URL(bytes) != part {
                fail("the part \"\(part)\" decodes to \(bytes), whose canonical base64url is \(base64URL(bytes))")
            }
            if part.utf8.contains(where: { !isBase64URLCharacter($0) }) {
                fail("the part \"\(part)\" holds a character outside base64url")
            }
        }
        if token.signingInput != Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8) {
            fail("the signing input is not the token's first two parts")
        }
    } catch {
        checkError(error, token: text)
    }
    verifyAndCheck(text)
}

/// Signs `claims` (as the payload) with the trusted or the foreign key, then verifies the token.
func checkSignedClaims(_ claims: [UInt8], signer foreign: Bool) {
    let header = Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)
    let signingInput = base64URL(header) + "." + base64URL(claims)
    let secret = foreign ? foreignSecret : trustedSecret
    let text = signingInput + "." + base64URL(hmac(Array(signingInput.utf8), secret: secret))
    let accepted = verifyAndCheck(text)
    if foreign, let accepted {
        fail("a token signed by a key the verifier does not hold was accepted: \(accepted)")
    }
    let parsed: FleetEngineClaims
    do throws(JWTError) {
        parsed = try FleetEngineClaims(json: claims)
    } catch {
        if error.code != .malformedToken || error.message.isEmpty {
            fail("claims threw \(error.code) \"\(error.message)\"")
        }
        if accepted != nil { fail("the verifier accepted claims FleetEngineClaims(json:) refuses") }
        return
    }
    if !foreign, accepted == nil, expectedAcceptance(of: parsed) {
        fail("the verifier refused a validly signed token whose claims are valid: \(parsed)")
    }
    if let accepted, accepted != parsed { fail("the verifier returned \(accepted), the payload holds \(parsed)") }
    checkClaimsRoundTrip(parsed)
}

/// Signs a token for the trip `rest` names, changes one of its characters, and verifies it.
func checkAlteredToken(_ rest: [UInt8]) {
    guard rest.count >= 2 else { return }
    let claims = FleetEngineClaims(
        issuer: "fuzz", subject: "fuzz", audience: [TokenVerifier.fleetEngineAudience],
        issuedAt: Date(timeIntervalSince1970: Double(FixedTime.seconds) - 60),
        expiresAt: Date(timeIntervalSince1970: Double(FixedTime.seconds) + 600),
        tripID: "trip-" + String(decoding: rest.dropFirst(2), as: UTF8.self))
    let text: String
    do throws(JWTError) {
        text = try TokenMinter(signingKey: trustedKey, clock: FixedTime()).sign(claims)
    } catch {
        fail("signing \(claims) failed: \(error)")
    }
    guard let original = verifyAndCheck(text) else { fail("a token the trusted key signed was refused") }
    if original.tripID != claims.tripID { fail("the token names trip \(original.tripID ?? "none")") }
    var bytes = Array(text.utf8)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ".utf8)
    bytes[Int(rest[0]) * bytes.count / 256] = alphabet[Int(rest[1]) % alphabet.count]
    let altered = String(decoding: bytes, as: UTF8.self)
    if altered != text, let accepted = verifyAndCheck(altered) {
        fail("a token changed after signing was accepted: \(accepted)")
    }
}

/// Verifies `text`; checks that an accepted token is one the trusted key signed and that is valid
/// now, and that a refusal is a typed error with a message.
@discardableResult
func verifyAndCheck(_ text: String) -> FleetEngineClaims? {
    let claims: FleetEngineClaims
    do throws(JWTError) {
        claims = try verifier.verify(token: text)
    } catch {
        checkError(error, token: text)
        return nil
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let signature = base64URLDecode(parts[2]) else {
        fail("the verifier accepted a token that is not three base64url parts")
    }
    let signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    if signature != hmac(signingInput, secret: trustedSecret) {
        fail("the verifier accepted a token the trusted key did not sign")
    }
    if !expectedAcceptance(of: claims) { fail("the verifier accepted claims that are not valid now: \(claims)") }
    return claims
}

/// Whether claims are valid at the fixed clock, as RFC 7519 sections 4.1.3 to 4.1.6 and Fleet
/// Engine's rules have it: not expired, not before `nbf` or `iat`, for Fleet Engine, naming a trip.
func expectedAcceptance(of claims: FleetEngineClaims) -> Bool {
    let now = Date(timeIntervalSince1970: Double(FixedTime.seconds))
    guard let expiresAt = claims.expiresAt, now < expiresAt.addingTimeInterval(30) else { return false }
    for time in [claims.notBefore, claims.issuedAt] {
        if let time, time > now.addingTimeInterval(30) { return false }
    }
    return claims.audience.contains(TokenVerifier.fleetEngineAudience) && !(claims.tripID ?? "").isEmpty
}

/// The claims written as JSON (times in whole seconds) must read back as themselves, their times
/// cut to whole seconds.
func checkClaimsRoundTrip(_ claims: FleetEngineClaims) {
    let bytes: [UInt8]
    do throws(JWTError) {
        bytes = try claims.jsonBytes()
    } catch {
        // Times that do not fit the writer's whole seconds are refused with a typed error.
        if error.message.isEmpty { fail("jsonBytes() threw \(error.code) without a message") }
        return
    }
    do throws(JWTError) {
        let again = try FleetEngineClaims(json: bytes)
        var expected = claims
        expected.issuedAt = claims.issuedAt.map(wholeSeconds)
        expected.expiresAt = claims.expiresAt.map(wholeSeconds)
        expected.notBefore = claims.notBefore.map(wholeSeconds)
        if again != expected {
            fail("claims \(expected) came back from \(String(decoding: bytes, as: UTF8.self)) as \(again)")
        }
    } catch {
        fail("the claims' own JSON \(String(decoding: bytes, as: UTF8.self)) was refused: \(error)")
    }
}

func wholeSeconds(_ date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
}

/// An error must have a message, and must not show the token's signature (a token is a credential).
func checkError(_ error: JWTError, token: String) {
    if error.message.isEmpty { fail("\(error.code) without a message") }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count == 3, parts[2].count >= 16, "\(error)".contains(parts[2]) {
        fail("the error \(error) shows the token's signature")
    }
}

func hmac(_ message: [UInt8], secret: [UInt8]) -> [UInt8] {
    Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
}

/// Unpadded base64url (RFC 4648 section 5), through Foundation's base64.
func base64URL(_ bytes: [UInt8]) -> String {
    var text = Data(bytes).base64EncodedString()
    while text.hasSuffix("=") { text.removeLast() }
    return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
}

/// The bytes of unpadded base64url text, through Foundation's base64.
func base64URLDecode(_ text: Substring) -> [UInt8]? {
    var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    while standard.utf8.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard).map(Array.init)
}

func isBase64URLCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        true
    default: false
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzJWT_main")
public func fuzzJWTMain(_ argumentCount: CInt, _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
    -> CInt
{
    LibFuzzerEntry.run(argumentCount, arguments) { fuzz($0, $1) }
}
