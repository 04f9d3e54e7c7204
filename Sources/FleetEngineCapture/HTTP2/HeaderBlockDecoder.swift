import NIOCore
import NIOHPACK

/// Decodes the header blocks one endpoint sent, through NIOHPACK's decoder (RFC 7541), keeping the
/// dynamic table from block to block as the receiving endpoint does.
struct HeaderBlockDecoder {
    /// The dynamic table size every connection starts with (RFC 9113 section 6.5.2).
    static let defaultTableSize = 4_096
    /// A bound on a decoded header list, far above what gRPC sends, to bound memory.
    static let maxHeaderListSize = 1 << 20

    private var decoder = HPACKDecoder(
        allocator: ByteBufferAllocator(), maxDynamicTableSize: defaultTableSize, maxHeaderListSize: maxHeaderListSize)
    /// Whether a block failed to decode: the dynamic table is then unknown, and later blocks may
    /// decode to wrong values or not at all.
    private(set) var lostTableState = false

    /// Applies the receiving endpoint's `SETTINGS_HEADER_TABLE_SIZE` (RFC 7541 section 4.2): the
    /// sender may grow its table up to it.
    mutating func setMaxTableSize(_ size: Int) {
        decoder.maxDynamicTableLength = max(0, min(size, 1 << 24))
    }

    /// The fields of one complete header block.
    mutating func decode(_ block: [UInt8], byteOffset: Int64, streamID: UInt32) throws(CaptureError) -> [(
        name: String, value: String
    )] {
        var buffer = ByteBuffer(bytes: block)
        do {
            let headers = try decoder.decodeHeaders(from: &buffer)
            return headers.map { (name: $0.name, value: $0.value) }
        } catch {
            lostTableState = true
            // The table may hold anything now; start again from an empty one, so that blocks made
            // only of literals and static entries still decode.
            let size = decoder.maxDynamicTableLength
            decoder = HPACKDecoder(
                allocator: ByteBufferAllocator(), maxDynamicTableSize: max(size, Self.defaultTableSize),
                maxHeaderListSize: Self.maxHeaderListSize)
            decoder.maxDynamicTableLength = size
            throw CaptureError(
                code: .undecodableHeaderBlock,
                message: "the header block of stream \(streamID) does not decode (\(error))",
                byteOffset: byteOffset,
                cause: error
            )
        }
    }
}
