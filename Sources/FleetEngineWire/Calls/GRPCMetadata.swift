import FleetEngineCodec
import FleetEngineStatus

/// The custom metadata of a gRPC call: an ordered list of header fields, as the peer sent them
/// or as the caller will send them.
///
/// gRPC PROTOCOL-HTTP2, "Requests": Custom-Metadata → Binary-Header / ASCII-Header. A name ending
/// in `-bin` carries base64 of arbitrary bytes (``binaryValues(named:)`` decodes it); any other
/// carries printable ASCII. Names may repeat; the order of fields with the same name is kept.
///
/// This type holds what it is given. What may be *sent* is checked where it is sent:
/// ``GRPCRequestHead`` refuses reserved and malformed names and values.
public struct GRPCMetadata: Hashable, Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field: a name and its value.
    public struct Field: Hashable, Sendable, CustomStringConvertible {
        /// The field name, lower-case on the wire (RFC 9113 section 8.2.1).
        public var name: String
        /// The value: ASCII text, or base64 for a `-bin` name.
        public var value: String

        /// A field from its name and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `name: value`.
        public var description: String { name + ": " + value }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// No metadata.
    public init() {
        fields = []
    }

    /// Metadata holding `fields`, in their order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Metadata holding the given pairs, in their order: `["x-request-id": "42"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The index of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The index past the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`.
    public subscript(position: Int) -> Field { fields[position] }

    /// Appends a field, unchecked.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Appends a binary field: `value` in unpadded base64, as gRPC senders write it. `name` should
    /// end in `-bin`.
    public mutating func append(name: String, binaryValue: some Collection<UInt8>) {
        fields.append(Field(name: name, value: Base64.encode(binaryValue, padded: false)))
    }

    /// The value of the first field named `name`, or nil when there is none.
    public func first(named name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The values of every field named `name`, in order.
    public func values(named name: String) -> [String] {
        fields.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The decoded bytes of every `-bin` value named `name`, in order.
    ///
    /// gRPC PROTOCOL-HTTP2, "Requests": padded and unpadded base64 are both accepted, and a value
    /// is split on `,` first, since a proxy may join repeated fields into one.
    ///
    /// - Throws: ``WireError/Code/invalidMetadata`` naming the field when a value is not base64.
    public func binaryValues(named name: String) throws(WireError) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for (index, field) in fields.enumerated() where field.name == name {
            for part in field.value.split(separator: ",", omittingEmptySubsequences: false) {
                do throws(CodecError) {
                    result.append(try Base64.decode(String(part.trimmingFieldWhitespace())))
                } catch {
                    throw WireError(
                        code: .invalidMetadata,
                        message: "metadata field \(index) '\(name)' is not base64: \(error.message)",
                        cause: error)
                }
            }
        }
        return result
    }

    /// Whether a field named `name` is present.
    public func contains(name: String) -> Bool {
        fields.contains { $0.name == name }
    }
}
