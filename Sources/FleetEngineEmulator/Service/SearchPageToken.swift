import FleetEngineStatus

/// SearchTrips' page tokens: opaque to callers; inside, the name of the last trip of the previous
/// page, so paging stays right while trips are added and removed between pages.
enum SearchPageToken {
    private static let prefix = "after:"

    static func encode(after name: String) -> String {
        base64URL(Array((prefix + name).utf8))
    }

    /// The name to continue after, or nil for the first page.
    ///
    /// - Throws: INVALID_ARGUMENT (field `page_token`) for a token this server did not make, or one
    ///   made for another provider.
    static func decode(_ token: String, providerID: String) throws(FleetEngineError) -> String? {
        if token.isEmpty { return nil }
        guard let bytes = fromBase64URL(token), let text = String(validating: bytes, as: UTF8.self),
            text.hasPrefix(prefix)
        else {
            throw EmulatorErrors.invalidArgument(field: "page_token", "the page token is not one this server issued")
        }
        let name = String(text.dropFirst(prefix.count))
        // By bytes: a trip id may begin with a combining mark (see TripName.lastSegment(of:)).
        guard name.utf8.starts(with: "providers/\(providerID)/trips/".utf8) else {
            throw EmulatorErrors.invalidArgument(field: "page_token", "the page token belongs to another provider")
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
