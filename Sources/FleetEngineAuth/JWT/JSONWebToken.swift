import Foundation

/// A signed JSON Web Token in JWS compact serialization, taken apart but not yet trusted.
///
/// Parsing follows RFC 7519 section 7.2 up to the signature: the text must be three base64url parts
/// (RFC 7515 section 7.1), the header a JSON object with a string `alg`. The claims are decoded
/// only on request (``claims()``), so that a verifier can check the signature first, as section 7.2
/// orders, and an altered token is reported as badly signed rather than by what it contains.
public struct JSONWebToken: Sendable {
    /// The JOSE header (RFC 7515 section 4).
    public struct Header: Sendable, Hashable {
        /// `alg`: the algorithm the token claims to be signed with.
        public var algorithm: JWTAlgorithm
        /// `kid`: which key signed it, when the signer said.
        public var keyID: String?
        /// `typ`: the media type of the whole token, usually `JWT`.
        public var type: String?

        /// A header from its fields.
        public init(algorithm: JWTAlgorithm, keyID: String? = nil, type: String? = "JWT") {
            self.algorithm = algorithm
            self.keyID = keyID
            self.type = type
        }
    }

    /// The decoded header.
    public var header: Header
    /// The decoded payload: the JWT claims set's bytes, which should be a JSON object.
    public var payload: [UInt8]
    /// What the signature covers: the ASCII of the first two parts with the `.` between them
    /// (RFC 7515 section 5.1, step 5).
    public var signingInput: [UInt8]
    /// The decoded signature.
    public var signature: [UInt8]

    /// Takes apart a compact JWS.
    ///
    /// - Throws: ``JWTError/Code/malformedToken`` when the text is not three base64url parts, or
    ///   the header is not a JSON object with a string `alg`, or has a member name twice in one
    ///   object (RFC 7515 section 4), or has a `crit` member (RFC 7515 section 4.1.11: the verifier
    ///   implements no extension a token may require).
    public init(compact text: String) throws(JWTError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            // Five parts would be a JWE (RFC 7516 section 7.1), which Fleet Engine never uses.
            throw JWTError(
                code: .malformedToken,
                message: "a JWT in compact form has 3 parts separated by '.', this one has \(parts.count)",
                metadata: ["parts": String(parts.count)]
            )
        }
        let headerBytes = try Base64URL.decode(parts[0], part: "header")
        self.header = try Self.decodeHeader(headerBytes)
        self.payload = try Base64URL.decode(parts[1], part: "payload")
        self.signature = try Base64URL.decode(parts[2], part: "signature")
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    }

    /// Decodes the payload as a Fleet Engine claims set (RFC 7519 section 7.2, step 10).
    ///
    /// - Throws: ``JWTError/Code/malformedToken`` when the payload is not a JSON object, has a
    ///   member name twice in one object, or a claim has the wrong type.
    public func claims() throws(JWTError) -> FleetEngineClaims {
        try FleetEngineClaims(json: payload)
    }

    private struct RawHeader: Decodable {
        var alg: String?
        var kid: String?
        var typ: String?
        var crit: [String]?
    }

    private static func decodeHeader(_ bytes: [UInt8]) throws(JWTError) -> Header {
        let raw: RawHeader
        do {
            raw = try JSONDecoder().decode(RawHeader.self, from: Data(bytes))
        } catch {
            throw JWTError(
                code: .malformedToken,
                message: "the header is not a JSON object of JOSE header parameters (RFC 7515 section 4)",
                metadata: ["part": "header"],
                cause: error
            )
        }
        try JOSEJSON.checkUniqueMemberNames(bytes, part: "header")
        guard let alg = raw.alg else {
            throw JWTError(
                code: .malformedToken,
                message: "the header has no \"alg\" (RFC 7515 section 4.1.1 requires it)",
                metadata: ["part": "header"]
            )
        }
        if let critical = raw.crit {
            throw JWTError(
                code: .malformedToken,
                message: "the header marks \(critical.count) extension(s) as critical (\"crit\"), and the verifier "
                    + "understands none (RFC 7515 section 4.1.11)",
                metadata: ["part": "header"]
            )
        }
        return Header(algorithm: JWTAlgorithm(rawValue: alg), keyID: raw.kid, type: raw.typ)
    }
}
