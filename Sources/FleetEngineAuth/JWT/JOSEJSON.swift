import Foundation

/// The uniqueness check of the member names of the JSON a token carries.
enum JOSEJSON {
    /// Refuses JSON text in which one object has the same member name twice.
    ///
    /// RFC 7515 section 4 (header parameters) and RFC 7519 section 4 (claims) require unique
    /// names, and a parser must either refuse duplicates or take the lexically last. Foundation's
    /// decoder takes the first, where Google's (Python's `json`) take the last, so a token with
    /// `"tripid": "trip-1", "tripid": "*"` would be a consumer token here and a server token there.
    /// Refusing is the choice both readings agree on.
    ///
    /// - Parameter bytes: text that already decoded as JSON.
    /// - Throws: ``JWTError/Code/malformedToken`` naming the repeated member.
    static func checkUniqueMemberNames(_ bytes: [UInt8], part: String) throws(JWTError) {
        guard let name = firstRepeatedMemberName(in: bytes) else { return }
        throw JWTError(
            code: .malformedToken,
            message: "the \(part) has the member \"\(JWTError.excerpt(name))\" twice in one JSON object "
                + "(RFC 7515 section 4 and RFC 7519 section 4 require unique names)",
            metadata: ["part": part]
        )
    }

    /// The first member name that appears twice in one object, or nil. Iterative, so that nesting
    /// costs a stack entry, not a call frame.
    private static func firstRepeatedMemberName(in bytes: [UInt8]) -> String? {
        // Per open container: the names its members had so far, nil for an array.
        var open: [Set<String>?] = []
        var expectingName = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                open.append([])
                expectingName = true
            case UInt8(ascii: "["):
                open.append(nil)
                expectingName = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                expectingName = false
            case UInt8(ascii: ","):
                expectingName = open.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                let start = index + 1
                var escaped = false
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 1
                    }
                    index += 1
                }
                if expectingName, !open.isEmpty, open[open.count - 1] != nil {
                    let name = memberName(bytes[start..<min(index, bytes.count)], escaped: escaped)
                    if open[open.count - 1]?.insert(name).inserted == false { return name }
                    expectingName = false
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A member name's text as the decoder compares it: escapes such as `\u0069` resolved.
    private static func memberName(_ raw: ArraySlice<UInt8>, escaped: Bool) -> String {
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        let quoted = [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: raw, as: UTF8.self)
    }
}
