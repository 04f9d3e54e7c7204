import FleetEngineCodec

/// A trip's resource name, `providers/{provider_id}/trips/{trip_id}`, checked as Fleet Engine checks it.
///
/// Shared by the client, which refuses a bad name before any network traffic, and the emulator,
/// which answers one as Fleet Engine does: INVALID_ARGUMENT with a `BadRequest` field violation.
public struct TripName: Hashable, Sendable, CustomStringConvertible {
    /// The provider: the Google Cloud project id.
    public var providerID: String
    /// The trip id, unique per provider.
    public var tripID: String

    /// A name from its parts, checked.
    ///
    /// - Throws: INVALID_ARGUMENT with a `BadRequest` violation of `field` when a part is not valid.
    public init(providerID: String, tripID: String, field: String = "name") throws(FleetEngineError) {
        try Self.checkProviderID(providerID, field: field)
        try Self.checkTripID(tripID, field: field)
        self.providerID = providerID
        self.tripID = tripID
    }

    /// A name from parts already checked (``BillableTripName`` makes its trip's name so).
    init(checkedProviderID: String, tripID: String) {
        self.providerID = checkedProviderID
        self.tripID = tripID
    }

    /// Parses `providers/{provider_id}/trips/{trip_id}`.
    ///
    /// - Throws: INVALID_ARGUMENT with a `BadRequest` violation of `field` (the request field that
    ///   carried the name) saying what is wrong.
    public init(parsing name: String, field: String = "name") throws(FleetEngineError) {
        if let (providerID, tripID) = Self.validASCIIParts(of: name) {
            self.init(checkedProviderID: String(providerID), tripID: String(tripID))
            return
        }
        guard let (providerID, tripID) = Self.parts(of: name, collection: "trips") else {
            throw FleetEngineError.invalidArgument(
                field: field,
                "\"\(name)\" is not a trip name of the form providers/{provider_id}/trips/{trip_id}"
            )
        }
        try self.init(providerID: providerID, tripID: tripID, field: field)
    }

    /// The provider id and the id of `providers/{provider_id}/{collection}/{id}`, unchecked, or nil
    /// for a name of another shape. Split at every "/", also one that a combining mark follows (one
    /// Character, "/\u{301}").
    static func parts(of name: String, collection: String) -> (String, String)? {
        let parts = name.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(Substring.init)
        guard parts.count == 4, parts[0] == "providers", parts[2] == collection else { return nil }
        return (String(parts[1]), String(parts[3]))
    }

    /// The parts of a valid name made only of ASCII, found in one pass over its bytes (every
    /// refresh of a followed trip checks its name), or nil for any other name, which the general
    /// path checks scalar by scalar and explains. For ASCII the two agree: a provider id of
    /// 1 to 63 letters, digits, `-`, `_` and `.`; a trip id of 1 to 64 printable characters other
    /// than `/`, `:`, `?`, `,` and `#` (ASCII's control characters are 0x00–0x1F and 0x7F).
    private static func validASCIIParts(of name: String) -> (Substring, Substring)? {
        let bytes = name.utf8
        let providersPrefix = "providers/".utf8
        guard bytes.starts(with: providersPrefix) else { return nil }
        let providerStart = bytes.index(bytes.startIndex, offsetBy: providersPrefix.count)
        guard let slash = bytes[providerStart...].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let provider = bytes[providerStart..<slash]
        let tripsPrefix = "/trips/".utf8
        guard bytes[slash...].starts(with: tripsPrefix) else { return nil }
        let trip = bytes[bytes.index(slash, offsetBy: tripsPrefix.count)...]
        guard (1...63).contains(provider.count), provider.allSatisfy(isProviderIDByte),
            (1...64).contains(trip.count), trip.allSatisfy(isTripIDByte)
        else { return nil }
        return (Substring(provider), Substring(trip))
    }

    private static func isProviderIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    private static func isTripIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: ","), UInt8(ascii: "#"): false
        case 0x20..<0x7F: true
        default: false
        }
    }

    /// Parses a parent, `providers/{provider_id}`, and returns the provider id.
    public static func providerID(parsingParent parent: String, field: String = "parent") throws(FleetEngineError)
        -> String
    {
        let parts = parent.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(Substring.init)
        guard parts.count == 2, parts[0] == "providers" else {
            throw FleetEngineError.invalidArgument(
                field: field, "\"\(parent)\" is not a parent of the form providers/{provider_id}")
        }
        try checkProviderID(String(parts[1]), field: field)
        return String(parts[1])
    }

    /// `providers/{provider_id}/trips/{trip_id}`.
    public var description: String { "providers/\(providerID)/trips/\(tripID)" }

    /// `providers/{provider_id}`.
    public var parent: String { "providers/\(providerID)" }

    /// What follows the last `/` of `name` (all of it without one): the trip id of a trip name.
    /// Read by Unicode scalars, as names are parsed: a trip id may begin with a combining mark,
    /// which would join the `/` before it into one `Character`.
    public static func lastSegment(of name: String) -> String {
        guard let slash = name.unicodeScalars.lastIndex(of: "/") else { return name }
        return String(name.unicodeScalars[name.unicodeScalars.index(after: slash)...])
    }

    /// A Cloud project id: 6 to 30 lower-case letters, digits and hyphens, starting with a letter.
    /// The emulator accepts any non-empty id of letters, digits, `-`, `_` and `.`, so that local ids
    /// such as `test` work; what it refuses would never name a project.
    static func checkProviderID(_ id: String, field: String) throws(FleetEngineError) {
        guard !id.isEmpty else {
            throw FleetEngineError.invalidArgument(field: field, "the provider id is empty")
        }
        guard id.utf8.count <= 63,
            id.unicodeScalars.allSatisfy({
                ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
                    || "-_.".unicodeScalars.contains($0)
            })
        else {
            throw FleetEngineError.invalidArgument(field: field, "the provider id \"\(id)\" is not a project id")
        }
    }

    /// Fleet Engine's trip id rules (CreateTripRequest.trip_id): a non-empty Unicode string of at
    /// most 64 characters, counted as Unicode scalars (as graphemes, one letter with thousands of
    /// combining marks would pass), without `/`, `:`, `?`, `,` or `#`. `kind` names the id in the
    /// messages ("trip id", or "billable trip id" for ``BillableTripName``).
    static func checkTripID(_ id: String, field: String, kind: String = "trip id") throws(FleetEngineError) {
        guard !id.isEmpty else {
            throw FleetEngineError.invalidArgument(field: field, "the \(kind) is empty")
        }
        guard id.unicodeScalars.count <= 64 else {
            throw FleetEngineError.invalidArgument(field: field, "the \(kind) is longer than 64 characters")
        }
        if let bad = id.unicodeScalars.first(where: { "/:?,#".unicodeScalars.contains($0) }) {
            throw FleetEngineError.invalidArgument(
                field: field, "the \(kind) contains \"\(bad)\", which is not allowed")
        }
        if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw FleetEngineError.invalidArgument(field: field, "the \(kind) contains a control character")
        }
    }
}

extension FleetEngineError {
    /// INVALID_ARGUMENT with a `BadRequest` field violation of `field`, as Fleet Engine reports a
    /// bad request field: the description is both the message and the violation's description.
    public static func invalidArgument(field: String, _ description: String) -> FleetEngineError {
        var violation = BadRequest.FieldViolation()
        violation.field = field
        violation.description = description
        var badRequest = BadRequest()
        badRequest.fieldViolations = [violation]
        return FleetEngineError(code: .invalidArgument, message: description, details: [.badRequest(badRequest)])
    }
}
