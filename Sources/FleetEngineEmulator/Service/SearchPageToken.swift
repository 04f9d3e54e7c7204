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
        base64URL(Array((prefix + name + (query.isEmpty ? "" : String(separator) + query)).utf8))
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
        guard let bytes = fromBase64URL(token), let text = String(validating: bytes, as: UTF8.self),
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

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for position in 0..<(chunk.count + 1) {
                output.append(alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func fromBase64URL(_ text: String) -> [UInt8]? {
        var group: UInt32 = 0
        var bits = 0
        var output: [UInt8] = []
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            group = group << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: group >> UInt32(bits)))
            }
        }
        return output
    }
}
