import Foundation

/// A JSON value as Foundation's `JSONSerialization` reads it, compared by meaning: numbers by value,
/// object members in any order. Independent of the codec, so that the codec's JSON is checked
/// against Python's without either parser judging its own output.
indirect enum FoundationJSON: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([FoundationJSON])
    case object([String: FoundationJSON])

    /// Parses JSON text with `JSONSerialization`.
    init(text: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        self.init(foundation: value)
    }

    /// Converts what `JSONSerialization` returns.
    init(foundation value: Any) {
        switch value {
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            // Foundation hands true and false over as NSNumber too; only its type code tells them apart.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let elements as [Any]:
            self = .array(elements.map(FoundationJSON.init(foundation:)))
        case let members as [String: Any]:
            self = .object(members.mapValues(FoundationJSON.init(foundation:)))
        default:
            self = .null
        }
    }

    /// The member with this name of an object; nil for a missing member or a value that is not an object.
    subscript(member: String) -> FoundationJSON? {
        if case .object(let members) = self { return members[member] }
        return nil
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var arrayValue: [FoundationJSON]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// An object whose members are all strings, as proto3 JSON prints a `map<string, string>`.
    var stringMapValue: [String: String]? {
        guard case .object(let members) = self else { return nil }
        var map: [String: String] = [:]
        for (key, value) in members {
            guard let text = value.stringValue else { return nil }
            map[key] = text
        }
        return map
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]?.description ?? "")" }.joined(separator: ", ")
                + "}"
        }
    }
}
