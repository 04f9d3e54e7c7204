import Foundation

/// Compact, key-sorted JSON for JOSE headers and claims sets.
enum JOSEJSON {
    static func encode(_ value: some Encodable, part: String) throws(JWTError) -> [UInt8] {
        let encoder = JSONEncoder()
        // Sorted keys make the bytes reproducible; unescaped slashes keep the audience URL readable
        // (both spellings are the same JSON string, RFC 8259 section 7).
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw JWTError(code: .invalidClaims, message: "the \(part) could not be encoded as JSON", cause: error)
        }
    }
}
