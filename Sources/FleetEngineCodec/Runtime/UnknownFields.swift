/// Fields of a message that its schema does not know, as the raw bytes they arrived in.
///
/// Decoding keeps every field whose number the schema does not declare, and every known field
/// that arrived with another wire type (as Google's parsers do), in arrival order. Encoding writes
/// them back after the known fields, byte for byte.
public struct UnknownFields: Sendable, Hashable {
    /// The fields' wire bytes: tag, then value, for each field, in arrival order.
    public private(set) var bytes: [UInt8]

    /// No unknown fields.
    public init() {
        bytes = []
    }

    /// Unknown fields from wire bytes, checked to be a sequence of complete, well-formed fields.
    ///
    /// - Throws: ``CodecError`` when `bytes` is not a sequence of whole protobuf fields.
    public init(validating bytes: [UInt8]) throws(CodecError) {
        let everyFieldUnknown = WireSchema(messageName: "unknown fields", fields: [])
        let options = DecodingOptions(maxMessageSize: .max)
        try bytes.withUnsafeBufferPointer { (buffer) throws(CodecError) in
            _ = try WireScanner(bytes: buffer, options: options).check(everyFieldUnknown)
        }
        self.bytes = bytes
    }

    init(trusted bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// True when there are no unknown fields.
    public var isEmpty: Bool { bytes.isEmpty }

    mutating func append(tag: UInt64, value: UnsafeBufferPointer<UInt8>) {
        WireReading.appendVarint(tag, to: &bytes)
        bytes.append(contentsOf: value)
    }

    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    mutating func append(raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }
}
