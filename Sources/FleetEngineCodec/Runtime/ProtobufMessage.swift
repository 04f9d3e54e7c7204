/// A message of Fleet Engine's trip API, `google.rpc` or a well-known type, as a Swift value.
///
/// Every message type in Protos/ conforms. Binary encoding and decoding go through libprotobuf-c;
/// JSON follows the proto3 JSON mapping as Google's own libraries print and parse it.
public protocol ProtobufMessage: Sendable, Hashable {
    /// The full protobuf name, e.g. `maps.fleetengine.v1.Trip`.
    static var protoMessageName: String { get }

    /// A message with every field at its default.
    init()

    /// Fields on the wire that this schema does not know (or that came with an unexpected wire
    /// type), kept in arrival order so that encoding writes them back.
    var unknownFields: UnknownFields { get set }

    /// True when this message, or any message inside it at any depth, holds fields its schema does
    /// not define: its own ``unknownFields``, or those of a sub-message (a wrapper field's included).
    ///
    /// It reads what decoding kept, so it costs a walk over the message's sub-messages and no look
    /// at any bytes: the check to make before ``unknownFieldLocations(in:options:)``, which reads
    /// the whole input again to say where such fields are. For a message decoded from `bytes`, that
    /// finds none whenever this is false.
    var containsUnknownFields: Bool { get }

    /// Decodes the protobuf binary form.
    ///
    /// - Throws: ``CodecError`` naming what was wrong and where, for input Google's parsers reject.
    init(serializedBytes bytes: some Collection<UInt8>, options: DecodingOptions) throws(CodecError)

    /// Encodes the protobuf binary form: known fields in field-number order, then unknown fields.
    func serializedBytes() -> [UInt8]

    /// Prints the proto3 JSON form as UTF-8.
    ///
    /// - Throws: ``CodecError/Code/unknownTypeURL`` when a `google.protobuf.Any` holds a type this
    ///   codec does not know (Google's printer fails the same way).
    func jsonUTF8Bytes(options: JSONEncodingOptions) throws(CodecError) -> [UInt8]

    /// Parses the proto3 JSON form.
    init(jsonUTF8Bytes bytes: some Collection<UInt8>, options: JSONDecodingOptions) throws(CodecError)
}

extension ProtobufMessage {
    /// Appends the proto3 JSON form (what ``jsonUTF8Bytes(options:)`` returns) to `output`, written
    /// in place rather than built on its own and copied: for callers that put many messages into
    /// one text, such as JSON lines. On a failure `output` is as it was.
    public func appendJSONUTF8Bytes(
        to output: inout [UInt8], options: JSONEncodingOptions = JSONEncodingOptions()
    ) throws(CodecError) {
        guard let message = self as? any JSONCodableMessage else {
            output += try jsonUTF8Bytes(options: options)
            return
        }
        let start = output.count
        var writer = JSONWriter(options: options, appendingTo: output)
        output = []
        do throws(CodecError) {
            try message.writeJSON(&writer)
            output = writer.takeBytes()
        } catch {
            output = writer.takeBytes()
            output.removeSubrange(start...)
            throw error
        }
    }

    /// Decodes the protobuf binary form with the default ``DecodingOptions``.
    public init(serializedBytes bytes: some Collection<UInt8>) throws(CodecError) {
        try self.init(serializedBytes: bytes, options: DecodingOptions())
    }

    /// Prints the proto3 JSON form as a `String`.
    public func jsonString(options: JSONEncodingOptions = JSONEncodingOptions()) throws(CodecError) -> String {
        String(decoding: try jsonUTF8Bytes(options: options), as: UTF8.self)
    }

    /// Prints the proto3 JSON form as UTF-8 with the default options.
    public func jsonUTF8Bytes() throws(CodecError) -> [UInt8] {
        try jsonUTF8Bytes(options: JSONEncodingOptions())
    }

    /// Parses the proto3 JSON form from UTF-8 with the default options.
    public init(jsonUTF8Bytes bytes: some Collection<UInt8>) throws(CodecError) {
        try self.init(jsonUTF8Bytes: bytes, options: JSONDecodingOptions())
    }

    /// Parses the proto3 JSON form from a `String`.
    public init(jsonString: String, options: JSONDecodingOptions = JSONDecodingOptions()) throws(CodecError) {
        try self.init(jsonUTF8Bytes: Array(jsonString.utf8), options: options)
    }
}

/// An enum of the schema: an open set of `Int32` values, some of them named.
///
/// Values the schema does not name survive decoding and encoding unchanged (proto3 enums are open).
public protocol ProtobufEnum: RawRepresentable, Sendable, Hashable, CustomStringConvertible
where RawValue == Int32 {
    /// The full protobuf name, e.g. `maps.fleetengine.v1.TripStatus`.
    static var protoEnumName: String { get }
    /// Every named value, in declaration order.
    static var allNamedValues: [Self] { get }
    /// The value's name in the schema (e.g. `ENROUTE_TO_PICKUP`), or nil for a value it does not name.
    var protoName: String? { get }
    /// The value with this schema name, if there is one.
    init?(protoName: String)
    init(rawValue: Int32)
}

extension ProtobufEnum {
    public var description: String { protoName ?? String(rawValue) }
}
