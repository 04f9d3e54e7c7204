import Foundation

/// A parsed JSON text, for comparing two printers' output as values rather than as text: proto3
/// JSON leaves number spelling (`90.0` or `90`), whitespace and key order to the printer.
public indirect enum JSONValue: Equatable, Decodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, whatever its spelling.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; key order does not count.
    case object([String: JSONValue])

    /// Reads one JSON value of any kind.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: Foundation's decoder does not turn `true` into a number or back.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses UTF-8 JSON text.
    public static func parse(_ bytes: [UInt8], from source: String) throws(BenchmarkSetupError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw BenchmarkSetupError("\(source) printed JSON that does not parse: \(error)")
        }
    }
}
