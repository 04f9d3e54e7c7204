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

    /// The receiving endpoint's `SETTINGS_HEADER_TABLE_SIZE` (RFC 7541 section 4.2), which bounds
    /// the sender's later dynamic table size updates; the table itself changes only with those.
    var maxTableSize: Int { reader.maxTableSize }

    /// Applies the receiving endpoint's `SETTINGS_HEADER_TABLE_SIZE` (RFC 7541 section 4.2): the
    /// sender's later dynamic table size updates may go up to it, and no further.
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

    /// The most entries lost blocks are supposed to have added when a block read with the table
    /// as it stands is not a well-formed header list.
    static let maxRealignment = 16

    /// How many entries the last block showed that lost blocks had added, when it moved the table
    /// (see ``decode(_:byteOffset:streamID:sentByClient:)``).
    private(set) var lastRealignment: Int?

    /// The fields of one complete header block.
    ///
    /// While the table is uncertain (blocks may have been lost), a block that names an older entry
    /// and then does not decode, or decodes into a header list no endpoint could have sent
    /// (``isWellFormed(_:sentByClient:)``: pseudo-header fields after regular ones, or of the other
    /// side, repeated, or an upper-case name), is evidence that lost blocks added entries and moved
    /// the older ones. The reader then supposes 1, 2, ... ``maxRealignment`` such entries, and
    /// keeps the first supposition under which the block decodes into a well-formed list without
    /// naming a lost entry (``lastRealignment`` says how many). The fields stay uncertain.
    mutating func decode(
        _ block: [UInt8], byteOffset: Int64, streamID: UInt32, sentByClient: Bool
    ) throws(CaptureError) -> [(name: String, value: String)] {
        lastRealignment = nil
        // Kept only while the table is uncertain: a copy would make every block that adds an entry
        // copy the table.
        let before: HPACKBlockReader? = reader.knownEntryCount != nil ? reader : nil
        var fields: [HPACKField]?
        var failure: HPACKBlockError?
        do throws(HPACKBlockError) {
            fields = try reader.decode(block[...])
        } catch {
            failure = error
        }
        if let before, failure != nil || reader.lastBlockUsedUncertainEntries,
            fields.map({ !Self.isWellFormed($0, sentByClient: sentByClient) }) ?? true
        {
            for number in 1...Self.maxRealignment {
                var candidate = before
                candidate.insertPlaceholders(number)
                guard let shifted = try? candidate.decode(block[...]),
                    Self.isWellFormed(shifted, sentByClient: sentByClient)
                else { continue }
                reader = candidate
                fields = shifted
                failure = nil
                lastRealignment = number
                break
            }
        }
        if let failure {
            loseTableState()
            throw CaptureError(
                code: .undecodableHeaderBlock,
                message: "the header block of stream \(streamID) does not decode: \(failure.message)",
                byteOffset: byteOffset
            )
        }
        return (fields ?? []).map { field in
            let name = String(decoding: field.name, as: UTF8.self)
            if name.hasSuffix("-bin"), field.value.first == 0 {
                return (name: name, value: Base64.encode(field.value.dropFirst(), padded: false))
            }
            return (name: name, value: String(decoding: field.value, as: UTF8.self))
        }
    }

    /// Whether `fields` could be a header list an HTTP/2 endpoint sent (RFC 9113 section 8.3): no
    /// empty or upper-case name, pseudo-header fields only before regular ones and each at most
    /// once, and only a request's (`:method`, `:scheme`, `:path`, `:authority`, `:protocol`, with
    /// `:method` and `:path` when any is there) from a client, only `:status` from a server.
    static func isWellFormed(_ fields: [HPACKField], sentByClient: Bool) -> Bool {
        var pseudo: Set<[UInt8]> = []
        var regularSeen = false
        for field in fields {
            guard let first = field.name.first,
                !field.name.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            else { return false }
            guard first == UInt8(ascii: ":") else {
                regularSeen = true
                continue
            }
            let allowed = sentByClient ? requestPseudoHeaders : responsePseudoHeaders
            guard !regularSeen, allowed.contains(field.name), pseudo.insert(field.name).inserted else { return false }
        }
        if sentByClient, !pseudo.isEmpty {
            return pseudo.contains(Array(":method".utf8)) && pseudo.contains(Array(":path".utf8))
        }
        return true
    }

    private static let requestPseudoHeaders: Set<[UInt8]> = Set(
        [":method", ":scheme", ":path", ":authority", ":protocol"].map { Array($0.utf8) })
    private static let responsePseudoHeaders: Set<[UInt8]> = [Array(":status".utf8)]
}
