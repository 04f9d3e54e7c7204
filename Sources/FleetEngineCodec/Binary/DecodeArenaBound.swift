// protobuf-c.h reaches Swift through the protoc-c headers, so its enum constants come with CFleetEngineProtos.
import CFleetEngineProtos
import CProtobufC

/// How many bytes protobuf-c may take from the decode arena for an input: a fixed linear function
/// of the input's size, derived from the schema.
///
/// protobuf-c allocates per field occurrence, and every occurrence takes at least 2 bytes on the
/// wire (a tag and a value, or a tag and a length). The most an occurrence can cost is an empty
/// sub-message (`tag 00`): a whole C struct of its type, a pointer in its field's array (protoc-c
/// allocates each array once, so its rounding to the arena's 16 bytes is paid once per field and
/// message), and the 32-byte record protobuf-c keeps for every field while it scans a message, in
/// slabs that double as they fill, so under 64 bytes a field. Strings, bytes, unknown fields and
/// packed scalars cost less per wire byte (their bytes once, plus a fixed record); a singular
/// sub-message sent many times is kept many times (it is repeated in the C rendering), so it costs
/// what a repeated one costs. So `input bytes / 2 * (largest struct + 88)`, plus one top-level
/// struct, bounds every input Google's parsers accept, whatever its shape, and no input can make
/// the decoder take more.
enum DecodeArenaBound {
    /// The array pointer and its rounding (24), and the scan record with its slab doubling (64).
    static let bookkeepingPerField = 24 + 64
    /// The top-level struct, the few fixed allocations of a message (its required-field bitmap),
    /// and rounding.
    static let fixedAllowance = 64 * 1024

    /// The arena limit for decoding `size` bytes of a type whose largest reachable C struct is
    /// `largestStruct` bytes. Saturates at `Int.max` rather than wrapping.
    static func limit(forInputSize size: Int, largestStruct: Int) -> Int {
        let perField = (largestStruct + 15) / 16 * 16 + bookkeepingPerField
        let fields = size / 2 + size % 2
        let (product, overflow) = fields.multipliedReportingOverflow(by: perField)
        if overflow { return .max }
        let (limit, overflowAgain) = product.addingReportingOverflow(fixedAllowance)
        return overflowAgain ? .max : limit
    }

    /// The largest `sizeof_message` among `root` and every message type its fields reach, read
    /// from protoc-c's descriptors.
    static func largestCStructSize(reachableFrom root: ProtobufCMessageDescriptor) -> Int {
        var largest = root.sizeof_message
        var seen = Set<UnsafeRawPointer>()
        var pending: [UnsafePointer<ProtobufCMessageDescriptor>] = []
        func enqueueMessageFields(of descriptor: ProtobufCMessageDescriptor) {
            guard let fields = descriptor.fields else { return }
            for index in 0..<Int(descriptor.n_fields) {
                let field = fields[index]
                guard field.type == PROTOBUF_C_TYPE_MESSAGE, let nested = field.descriptor else { continue }
                if seen.insert(nested).inserted {
                    pending.append(nested.assumingMemoryBound(to: ProtobufCMessageDescriptor.self))
                }
            }
        }
        enqueueMessageFields(of: root)
        while let next = pending.popLast() {
            largest = max(largest, next.pointee.sizeof_message)
            enqueueMessageFields(of: next.pointee)
        }
        return largest
    }
}
