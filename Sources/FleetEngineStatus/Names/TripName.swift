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

    /// Parses `providers/{provider_id}/trips/{trip_id}`.
    ///
    /// - Throws: INVALID_ARGUMENT with a `BadRequest` violation of `field` (the request field that
    ///   carried the name) saying what is wrong.
    public init(parsing name: String, field: String = "name") throws(FleetEngineError) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "providers", parts[2] == "trips" else {
            throw FleetEngineError.invalidArgument(
                field: field,
                "\"\(name)\" is not a trip name of the form providers/{provider_id}/trips/{trip_id}"
            )
        }
        try self.init(providerID: String(parts[1]), tripID: String(parts[3]), field: field)
    }

    /// Parses a parent, `providers/{provider_id}`, and returns the provider id.
    public static func providerID(parsingParent parent: String, field: String = "parent") throws(FleetEngineError)
        -> String
    {
        let parts = parent.split(separator: "/", omittingEmptySubsequences: false)
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

    /// A Cloud project id: 6 to 30 lower-case letters, digits and hyphens, starting with a letter.
    /// The emulator accepts any non-empty id of letters, digits, `-`, `_` and `.`, so that local ids
    /// such as `test` work; what it refuses would never name a project.
    private static func checkProviderID(_ id: String, field: String) throws(FleetEngineError) {
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

    /// Fleet Engine's trip id rules: a non-empty Unicode string of at most 64 characters, without
    /// `/`, `:`, `\`, `?` or `#`.
    private static func checkTripID(_ id: String, field: String) throws(FleetEngineError) {
        guard !id.isEmpty else {
            throw FleetEngineError.invalidArgument(field: field, "the trip id is empty")
        }
        guard id.count <= 64 else {
            throw FleetEngineError.invalidArgument(field: field, "the trip id is longer than 64 characters")
        }
        if let bad = id.first(where: { "/:\\?#".contains($0) }) {
            throw FleetEngineError.invalidArgument(
                field: field, "the trip id contains \"\(bad)\", which is not allowed")
        }
        if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw FleetEngineError.invalidArgument(field: field, "the trip id contains a control character")
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
