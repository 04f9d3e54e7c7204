import ArgumentParser
import FleetEngineStatus

extension StatusCode {
    /// The code a command-line argument names: a decimal number, or a canonical name in any case
    /// (`UNAVAILABLE`, `not_found`, `not-found`; ``StatusCode/init(name:)``).
    ///
    /// A number gRPC does not define is kept (it is explained as UNKNOWN), but it must fit the
    /// `int32` that `google.rpc.Status.code` is.
    ///
    /// - Throws: `ValidationError` for a negative number, a number too large, or a name that is not
    ///   a status code's (with the names closest to it).
    static func parsingArgument(_ text: String) throws(ValidationError) -> StatusCode {
        if isDecimal(text[...]) {
            guard let value = Int32(text) else {
                throw ValidationError(
                    "status code \(text) is too large; google.rpc.Status holds codes up to \(Int32.max)")
            }
            return StatusCode(rawValue: Int(value))
        }
        if isNegativeNumber(text) {
            throw ValidationError("status code \(text) is negative; gRPC's codes are 0 to 16")
        }
        if let code = StatusCode(name: text) { return code }
        let names = allKnown.compactMap(\.name)
        // Below four letters every name is "close" by edit distance; listing them all helps more.
        let suggestions = text.count < 4 ? [] : MessageTypeSuggestions.closeMatches(for: text, among: names)
        if suggestions.isEmpty {
            throw ValidationError(
                "'\(text)' is not a status code; give a number or one of " + names.joined(separator: ", "))
        }
        throw ValidationError("'\(text)' is not a status code; did you mean \(suggestions.joined(separator: ", "))?")
    }

    /// Whether `text` is `-` and decimal digits, which ArgumentParser takes for an option.
    static func isNegativeNumber(_ text: String) -> Bool {
        text.hasPrefix("-") && isDecimal(text.dropFirst())
    }

    private static func isDecimal(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
