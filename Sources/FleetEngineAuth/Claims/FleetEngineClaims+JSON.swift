import FleetEngineCodec
import Foundation

extension FleetEngineClaims {
    /// Decodes a JWT claims set.
    ///
    /// Registered claims must have the types RFC 7519 section 4.1 gives them (`exp`, `iat` and
    /// `nbf` are NumericDates: JSON numbers of seconds since the epoch, fractions allowed); claims
    /// this type does not model are ignored, as section 4 asks of claims that are not understood.
    /// A member name given twice in one object is refused (section 4 allows that or taking the
    /// last; Foundation's decoder would take the first).
    ///
    /// - Throws: ``JWTError/Code/malformedToken`` when the bytes are not a JSON object, repeat a
    ///   member name within an object, or a known claim has the wrong type.
    public init(json bytes: [UInt8]) throws(JWTError) {
        let raw: DecodedClaims
        do {
            raw = try JSONDecoder().decode(DecodedClaims.self, from: Data(bytes))
        } catch {
            throw JWTError(
                code: .malformedToken,
                message: "the payload is not a JSON object of JWT claims with the types RFC 7519 section 4.1 "
                    + "gives them",
                metadata: ["part": "payload"],
                cause: error
            )
        }
        try JOSEJSON.checkUniqueMemberNames(bytes, part: "payload")
        self.init(
            issuer: raw.iss,
            subject: raw.sub,
            audience: raw.aud?.values ?? [],
            issuedAt: try Self.numericDate(raw.iat, claim: "iat"),
            expiresAt: try Self.numericDate(raw.exp, claim: "exp"),
            notBefore: try Self.numericDate(raw.nbf, claim: "nbf"),
            tripID: raw.authorization?.tripid,
            vehicleID: raw.authorization?.vehicleid
        )
    }

    /// The years 1 to 9999, in seconds since the epoch: the range an RFC 3339 timestamp (and so
    /// Fleet Engine's own `Timestamp`) can show.
    static let numericDateRange: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// A NumericDate (RFC 7519 section 2) as a `Date`, refused outside ``numericDateRange`` so that
    /// a token cannot make the verifier compute or print a date no calendar holds.
    private static func numericDate(_ seconds: Double?, claim: String) throws(JWTError) -> Date? {
        guard let seconds else { return nil }
        guard numericDateRange.contains(seconds) else {
            throw JWTError(
                code: .malformedToken,
                message: "the \"\(claim)\" claim is not a time between the years 1 and 9999",
                metadata: ["part": "payload", "claim": claim]
            )
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The claims set as compact JSON with sorted keys and unescaped `/`, times as whole seconds.
    ///
    /// The form is fixed so that a minted token is byte-for-byte reproducible: the fixture script
    /// builds the same bytes in Python and the tests compare.
    public func jsonBytes() throws(JWTError) -> [UInt8] {
        // Members are written in the order of their names' bytes, the order Python's sort_keys
        // gives; `authorization` sorts after `aud`.
        var writer = JSONWriter()
        writer.beginObject()
        if audience.count == 1 {
            writer.key("aud")
            writer.string(audience[0])
        } else if !audience.isEmpty {
            writer.key("aud")
            writer.beginArray()
            for value in audience {
                writer.arrayElement()
                writer.string(value)
            }
            writer.endArray()
        }
        if tripID != nil || vehicleID != nil {
            writer.key("authorization")
            writer.beginObject()
            Self.write(tripID, as: "tripid", to: &writer)
            Self.write(vehicleID, as: "vehicleid", to: &writer)
            writer.endObject()
        }
        Self.write(expiresAt, as: "exp", to: &writer)
        Self.write(issuedAt, as: "iat", to: &writer)
        Self.write(issuer, as: "iss", to: &writer)
        Self.write(notBefore, as: "nbf", to: &writer)
        Self.write(subject, as: "sub", to: &writer)
        writer.endObject()
        return writer.takeBytes()
    }

    private static func write(_ value: String?, as name: StaticString, to writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(name)
        writer.string(value)
    }

    private static func write(_ date: Date?, as name: StaticString, to writer: inout JSONWriter) {
        guard let date else { return }
        writer.key(name)
        writer.integer(wholeSeconds(date))
    }

    private static func wholeSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}

/// Fleet Engine's private `authorization` claim.
private struct AuthorizationClaim: Decodable {
    var tripid: String?
    var vehicleid: String?
}

/// `aud`: one string or an array of strings (RFC 7519 section 4.1.3).
private enum AudienceClaim: Decodable {
    case one(String)
    case many([String])

    var values: [String] {
        switch self {
        case .one(let value): [value]
        case .many(let values): values
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .one(value)
        } else {
            self = .many(try container.decode([String].self))
        }
    }
}

private struct DecodedClaims: Decodable {
    var iss: String?
    var sub: String?
    var aud: AudienceClaim?
    var iat: Double?
    var exp: Double?
    var nbf: Double?
    var authorization: AuthorizationClaim?
}
