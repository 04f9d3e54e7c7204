/// What both clients put in every GetTrip request besides the trip's name, so that the server
/// receives the same call from either.
enum RequestMetadata {
    /// The bearer token: shaped and sized like the RS256 JWT a Fleet Engine server token is (761
    /// characters: a header with a key id, the service account's claims, a 2048-bit signature), so
    /// that the request's header block costs what it costs in production. The test server does not
    /// check it; the signature is filler.
    static let token: String = {
        let header = #"{"alg":"RS256","typ":"JWT","kid":"0123456789abcdef0123456789abcdef01234567"}"#
        let account = "fleet-engine-server@my-project.iam.gserviceaccount.com"
        let claims =
            #"{"iss":"\#(account)","sub":"\#(account)","aud":"https://fleetengine.googleapis.com/","#
            + #""iat":1700000000,"exp":4102444800,"authorization":{"tripid":"*"}}"#
        let signature = (0..<256).map { UInt8(truncatingIfNeeded: $0 * 151 + 7) }
        return [Array(header.utf8), Array(claims.utf8), signature].map(base64URL).joined(separator: ".")
    }()

    /// RFC 4648 section 5's base64url, without padding, as JWTs write their parts.
    private static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var bits = 0
            for byte in chunk { bits = bits << 8 | Int(byte) }
            bits <<= 8 * (3 - chunk.count)
            for position in 0...chunk.count { out.append(alphabet[(bits >> (18 - 6 * position)) & 0x3F]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Fleet Engine's routing header for a trip name `providers/{provider}/trips/{trip}`, as
    /// FleetEngineClient writes it (the slash percent-encoded).
    static func routingHeader(tripName: String) -> String {
        let provider = tripName.split(separator: "/", omittingEmptySubsequences: false).dropFirst().first ?? ""
        return "provider_id=providers%2F" + provider
    }

    /// The `RequestHeader` fields FleetEngineClient fills in with its default configuration.
    static let languageCode = "en-US"
    static let sdkVersion = "swift-fleet-engine/0.1.0"
    #if os(Linux)
        static let osVersion = "Linux"
    #else
        static let osVersion = "macOS"
    #endif
}
