import CProtobufC

/// A message type whose binary form goes through protoc-c's generated C.
///
/// Generated for every message: `CMessage` is the protoc-c struct, the static functions are its
/// generated pack/unpack functions, and the two conversions copy between the struct and the Swift value.
protocol CBackedMessage: ProtobufMessage {
    associatedtype CMessage

    /// Field numbers, names and kinds, for the scanner that checks input and locates faults.
    static var wireSchema: WireSchema { get }

    /// The largest protoc-c struct (`sizeof_message`) among this type and every message type it can
    /// hold, at any depth: what one empty sub-message can cost the decode arena (see
    /// ``DecodeArenaBound``).
    static var largestReachableCStructSize: Int { get }

    /// The heap bytes each value takes besides its inline ones (its `MessageStorage` box, if it
    /// has one), for the decoded-size budget; the runtime supplies it.
    static var storageBytes: Int { get }

    static func cUnpack(
        _ allocator: UnsafeMutablePointer<ProtobufCAllocator>,
        _ count: Int,
        _ bytes: UnsafePointer<UInt8>
    ) -> UnsafeMutablePointer<CMessage>?
    static func cPackedSize(_ c: UnsafePointer<CMessage>) -> Int
    static func cPack(_ c: UnsafePointer<CMessage>, into bytes: UnsafeMutablePointer<UInt8>) -> Int

    /// Copies an unpacked C message into a Swift value.
    init(cMessage: UnsafePointer<CMessage>, context: inout CDecodeContext) throws(CodecError)

    /// Fills a C message (memory from `arena`) from this value, ready for packing.
    func fillC(_ c: UnsafeMutablePointer<CMessage>, arena: EncodeArena)
}

/// A message type with a proto3 JSON form.
protocol JSONCodableMessage: ProtobufMessage {
    /// Writes the object's members, without the braces (so `google.protobuf.Any` can put `@type` first).
    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError)
    /// Writes the whole JSON value.
    func writeJSON(_ w: inout JSONWriter) throws(CodecError)
    /// Reads the whole JSON value.
    init(json value: JSONValue, context: inout JSONReadContext) throws(CodecError)
    /// Reads a JSON value into this message, as a second appearance of a message field in one
    /// object is read (the field under its other name): an ordinary message merges the members
    /// in, field by field; a well-known type with its own JSON form is replaced, as Google's
    /// Python `json_format` does.
    mutating func mergeJSON(_ value: JSONValue, context: inout JSONReadContext) throws(CodecError)
    /// Well-known types whose JSON is not an object of their fields; inside `Any` they appear under "value".
    static var hasSpecialJSONForm: Bool { get }
}

extension JSONCodableMessage {
    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        w.beginObject()
        try writeJSONMembers(&w)
        w.endObject()
    }

    static var hasSpecialJSONForm: Bool { false }

    mutating func mergeJSON(_ value: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self = try Self(json: value, context: &context)
    }
}

/// What every generated message is.
typealias CodecMessage = CBackedMessage & JSONCodableMessage
