import FleetEngineCodec

/// Decodes the header blocks one endpoint sent (RFC 7541), keeping the dynamic table from block to
/// block as the receiving endpoint does, and hands the fields on as the Wire layer takes them.
///
/// A `-bin` field sent as gRPC "true binary" metadata (raw bytes after a 0x00 byte, which grpc
/// C-core peers use when both advertise the HTTP/2 setting 0xFE03) is turned into the base64 form
/// every other gRPC peer sends, so the Wire layer reads `grpc-status-details-bin` alike from both.
struct HeaderBlockDecoder {
    /// The dynamic table size every connection starts with (RFC 9113 section 6.5.2).
    static let defaultTableSize = 4_096

    private var reader = HPACKBlockReader(maxTableSize: defaultTableSize)
    /// Whether a block failed to decode: the dynamic table is then unknown, and later blocks that
    /// refer to it cannot be read.
    private(set) var lostTableState = false

    /// Applies the receiving endpoint's `SETTINGS_HEADER_TABLE_SIZE` (RFC 7541 section 4.2): the
    /// sender may grow its table up to it.
    mutating func setMaxTableSize(_ size: Int) {
        reader.maxTableSize = max(0, min(size, 1 << 24))
    }

    /// Notes that a block was not decoded, so the dynamic table may hold anything now; decoding
    /// starts again from an empty table, so that blocks made only of literals and static entries
    /// still decode.
    mutating func loseTableState() {
        lostTableState = true
        reader = HPACKBlockReader(maxTableSize: reader.maxTableSize)
    }

    /// Notes that blocks this endpoint sent may be missing from the capture: they may have added
    /// entries to the sender's table. Later blocks are decoded with the table as it is, and those
    /// that refer to an entry from before are marked uncertain (``lastBlockWasUncertain``).
    mutating func markTableUncertain() {
        reader.markTableUncertain()
    }

    /// Whether the last block decoded referred to a dynamic-table entry from before blocks may have
    /// been lost: its fields are as likely right as the table is, but not certain.
    var lastBlockWasUncertain: Bool { reader.lastBlockUsedUncertainEntries }

    /// The fields of one complete header block.
    mutating func decode(_ block: [UInt8], byteOffset: Int64, streamID: UInt32) throws(CaptureError) -> [(
        name: String, value: String
    )] {
        let fields: [HPACKField]
        do throws(HPACKBlockError) {
            fields = try reader.decode(block[...])
        } catch {
            loseTableState()
            throw CaptureError(
                code: .undecodableHeaderBlock,
                message: "the header block of stream \(streamID) does not decode: \(error.message)",
                byteOffset: byteOffset
            )
        }
        return fields.map { field in
            let name = String(decoding: field.name, as: UTF8.self)
            if name.hasSuffix("-bin"), field.value.first == 0 {
                var text: [UInt8] = []
                Base64.encode(Array(field.value.dropFirst()), into: &text, padded: false)
                return (name: name, value: String(decoding: text, as: UTF8.self))
            }
            return (name: name, value: String(decoding: field.value, as: UTF8.self))
        }
    }
}
