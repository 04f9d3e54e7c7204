import CRawProtobufC

/// A message unpacked by protobuf-c with its default allocator, kept for the pack benchmarks, with
/// an output buffer of its packed size; both are freed when the benchmark lets go of it.
public final class RawMessage {
    /// The message type.
    public let kind: raw_message_kind
    private let message: UnsafeMutablePointer<ProtobufCMessage>
    /// The packed size, measured once: ``packIntoOutput()`` writes this many bytes.
    public let packedSize: Int
    private let output: UnsafeMutablePointer<UInt8>

    /// Unpacks `bytes`; `name` names the fixture in the error when protobuf-c refuses them.
    public init(kind: raw_message_kind, bytes: [UInt8], name: String) throws(BenchmarkSetupError) {
        let unpacked = bytes.withUnsafeBufferPointer { raw_unpack(kind, $0.baseAddress, $0.count) }
        guard let unpacked else {
            throw BenchmarkSetupError("protobuf-c refuses \(name)")
        }
        self.kind = kind
        self.message = unpacked
        self.packedSize = raw_packed_size(kind, unpacked)
        self.output = .allocate(capacity: max(packedSize, 1))
    }

    deinit {
        raw_free(kind, message)
        output.deallocate()
    }

    /// Packs into the buffer allocated at init; returns the bytes written.
    public func packIntoOutput() -> Int {
        raw_pack(kind, message, output)
    }

    /// Packs once more and returns a copy of the bytes written; for checks.
    public func pack() -> [UInt8] {
        let count = packIntoOutput()
        return Array(UnsafeBufferPointer(start: output, count: count))
    }
}
