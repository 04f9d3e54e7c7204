import Foundation

/// A JSON value compared by meaning: numbers by value (so `90.0` equals `90` and `1e+308` equals
/// `1e308`), objects regardless of member order. Parsed by Foundation's `JSONSerialization`,
/// independently of the codec, so that the codec's JSON is checked against Google's and Python's
/// without either parser judging its own output.
public indirect enum SemanticJSON: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SemanticJSON])
    case object([String: SemanticJSON])

    /// Parses JSON text (UTF-8).
    public init(text: some Collection<UInt8>) throws {
        // Foundation's parser on Linux drops a U+FEFF even inside a string; spelled as an escape it
        // survives. Raw U+FEFF can only stand inside a string in JSON text, so this changes no meaning.
        var escaped: [UInt8] = []
        let bytes = Array(text)
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count, bytes[index] == 0xef, bytes[index + 1] == 0xbb, bytes[index + 2] == 0xbf {
                escaped += Array("\\ufeff".utf8)
                index += 3
            } else {
                escaped.append(bytes[index])
                index += 1
            }
        }
        let object = try JSONSerialization.jsonObject(with: Data(escaped), options: [.fragmentsAllowed])
        self.init(foundation: object)
    }

    /// Parses JSON text.
    public init(text: String) throws {
        try self.init(text: text.utf8)
    }

    /// Converts what `JSONSerialization` returns.
    public init(foundation value: Any) {
        switch value {
        case let number as NSNumber:
            // Foundation gives true/false as NSNumber too; its type code "c" tells them apart.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let text as String:
            self = .string(text)
        case let elements as [Any]:
            self = .array(elements.map { SemanticJSON(foundation: $0) })
        case let members as [String: Any]:
            self = .object(members.mapValues { SemanticJSON(foundation: $0) })
        default:
            self = .null
        }
    }

    /// The member with this name of an object; nil for a missing member or a value that is not an object.
    public subscript(member: String) -> SemanticJSON? {
        if case .object(let members) = self { return members[member] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var arrayValue: [SemanticJSON]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// An object whose members are all strings, as proto3 JSON prints a `map<string, string>`.
    public var stringMapValue: [String: String]? {
        guard case .object(let members) = self else { return nil }
        var map: [String: String] = [:]
        for (key, value) in members {
            guard let text = value.stringValue else { return nil }
            map[key] = text
        }
        return map
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{"
                + members.keys.sorted().map { "\"\($0)\": \(members[$0].map(\.description) ?? "")" }
                .joined(separator: ", ") + "}"
        }
    }
}
