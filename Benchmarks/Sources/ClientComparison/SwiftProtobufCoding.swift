import GRPCCore
import SwiftProtobuf

/// Encodes a swift-protobuf message straight into the transport's byte type.
struct SwiftProtobufSerializer<Message: SwiftProtobuf.Message>: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        let encoded: ProtobufBytes<Bytes> = try message.serializedBytes()
        return encoded.bytes
    }
}

/// Decodes a swift-protobuf message from the transport's bytes, without copying them first.
struct SwiftProtobufDeserializer<Message: SwiftProtobuf.Message>: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        try Message(serializedBytes: ProtobufBytes(wrapping: serializedMessageBytes))
    }
}

/// gRPC's bag of bytes seen as swift-protobuf's: the two protocols ask for the same members.
struct ProtobufBytes<Bytes: GRPCContiguousBytes>: SwiftProtobufContiguousBytes {
    var bytes: Bytes

    init(wrapping bytes: Bytes) {
        self.bytes = bytes
    }

    init(repeating byte: UInt8, count: Int) {
        self.bytes = Bytes(repeating: byte, count: count)
    }

    init<Source: Sequence>(_ sequence: Source) where Source.Element == UInt8 {
        self.bytes = Bytes(sequence)
    }

    var count: Int { bytes.count }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }

    mutating func withUnsafeMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try bytes.withUnsafeMutableBytes(body)
    }
}
