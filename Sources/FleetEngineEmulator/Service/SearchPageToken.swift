import FleetEngineCodec
import FleetEngineStatus

/// SearchTrips' page tokens: opaque to callers; inside, the name of the last trip of the previous
/// page, so paging stays right while trips are added and removed between pages, and the query's
/// filters, so that a token continues only the query that made it.
///
/// A token holds `after:` and the name, then, when the query has filters, a unit separator
/// (U+001F, which no trip id holds) and ``query(of:)``.
enum SearchPageToken {
    private static let prefix = "after:"
    private static let separator: Unicode.Scalar = "\u{1F}"

    static func encode(after name: String, query: String) -> String {
        let text = prefix + name + (query.isEmpty ? "" : String(separator) + query)
        return Base64.encode(Array(text.utf8), padded: false, urlSafe: true)
    }

    /// The filters of a SearchTrips request, which every page of one query shares (AIP-158: only
    /// the page size may change from page to page). The vehicle id comes last, so no vehicle id
    /// can make one query's text another's.
    static func query(of request: SearchTripsRequest) -> String {
        var parts: [String] = []
        if request.activeTripsOnly { parts.append("active_trips_only") }
        if let staleness = request.minimumStaleness {
            parts.append("minimum_staleness=\(staleness.seconds).\(staleness.nanos)")
        }
        if !request.vehicleID.isEmpty { parts.append("vehicle_id=" + request.vehicleID) }
        return parts.joined(separator: ";")
    }

    /// The name to continue after, or nil for the first page.
    ///
    /// - Throws: INVALID_ARGUMENT (field `page_token`) for a token this server did not make, or one
    ///   made for another provider or another query (`query`, from ``query(of:)``).
    static func decode(_ token: String, providerID: String, query: String) throws(FleetEngineError) -> String? {
        if token.isEmpty { return nil }
        // The codec's decoder also takes padding and the standard alphabet: another spelling of a
        // token this server issued names the same page, and what the token holds is checked below.
        guard let bytes = try? Base64.decode(token), let text = String(validating: bytes, as: UTF8.self),
            text.hasPrefix(prefix)
        else {
            throw EmulatorErrors.invalidArgument(field: "page_token", "the page token is not one this server issued")
        }
        let content = text.unicodeScalars.dropFirst(prefix.unicodeScalars.count)
        let name: String
        let tokenQuery: String
        if let split = content.firstIndex(of: separator) {
            name = String(content[..<split])
            tokenQuery = String(content[content.index(after: split)...])
        } else {
            name = String(content)
            tokenQuery = ""
        }
        // By bytes: a trip id may begin with a combining mark (see TripName.lastSegment(of:)).
        guard name.utf8.starts(with: "providers/\(providerID)/trips/".utf8) else {
            throw EmulatorErrors.invalidArgument(field: "page_token", "the page token belongs to another provider")
        }
        guard tokenQuery == query else {
            throw EmulatorErrors.invalidArgument(
                field: "page_token",
                "the page token was issued for another query: vehicle_id, active_trips_only and minimum_staleness"
                    + " must stay the same from page to page")
        }
        return name
    }
}
