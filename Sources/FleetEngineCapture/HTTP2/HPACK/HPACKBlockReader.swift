/// Decodes HPACK header blocks (RFC 7541) into fields of raw bytes, keeping the dynamic table from
/// one block to the next as the receiving endpoint does.
///
/// Unlike NIOHPACK's `HPACKDecoder`, which turns every value into a `String` and so mangles bytes
/// that are not UTF-8, this returns names and values exactly as they were on the wire. That keeps
/// gRPC's "true binary metadata" intact: a C-core peer that saw the receiver's HTTP/2 setting
/// 0xFE03 may send a `-bin` value as a 0x00 byte followed by raw bytes instead of base64.
///
/// One reader decodes the blocks of one direction of one connection, in order. A block that fails
/// to decode is an HTTP/2 COMPRESSION_ERROR: the fields before the fault may already have changed
/// the dynamic table, so the table no longer matches the sender's, and a capture decoder that goes
/// on should start again from a new reader.
///
/// When blocks may have gone missing (a capture that lost bytes), the table may lack entries the
/// sender added, and every older entry would then sit at a higher index on the sender's side. The
/// reader is told so (``markTableUncertain()``): from then on it counts the entries added after,
/// which sit at the same indexes on both sides, and a block that refers to any older entry is
/// decoded as the table stands but said to be uncertain (``lastBlockUsedUncertainEntries``).
struct HPACKBlockReader: Sendable {
    /// The bound on a decoded header list when none is given: far above what gRPC sends, low
    /// enough that a small block of indexed fields cannot make the reader allocate without limit.
    static let defaultMaxHeaderListSize = 1 << 20
    /// The longest integer representation accepted, prefix byte included.
    ///
    /// RFC 7541 section 5.1 puts no bound on the length, only warns that decoders must guard
    /// against overflow. Ten bytes carry 63 bits, every `Int` value; anything longer is made of
    /// zero groups, legal in theory but only ever seen in an attack.
    static let maxIntegerLength = 10

    /// The dynamic table, shared by all the blocks the reader decodes (RFC 7541 section 2.2).
    private var table: HPACKDynamicTable
    /// The stored value of ``maxTableSize``.
    private var tableSizeLimit: Int
    /// When the table may lack entries the sender added: how many of the newest entries were
    /// added since, which both sides agree on. Nil when the whole table is known.
    private(set) var knownEntryCount: Int?
    /// Whether the last block decoded referred to an entry older than ``knownEntryCount``.
    private(set) var lastBlockUsedUncertainEntries = false

    /// The receiver's `SETTINGS_HEADER_TABLE_SIZE` (RFC 9113 section 6.5.2): a dynamic table size
    /// update above it is an error (RFC 7541 section 6.3).
    ///
    /// Changing it leaves the table alone, lowered or raised: only the encoder's dynamic table size
    /// update changes the table's maximum size (RFC 7541 section 4.2), and an encoder told of a
    /// lower limit sends one at the start of its next block. Blocks it encoded before may still
    /// name the entries a smaller table would have evicted.
    var maxTableSize: Int {
        get { tableSizeLimit }
        set { tableSizeLimit = max(0, newValue) }
    }

    /// The bound on one decoded header list, counting each field as its name and value lengths
    /// plus 32 bytes, as `SETTINGS_MAX_HEADER_LIST_SIZE` does (RFC 9113 section 6.5.2).
    var maxHeaderListSize: Int

    /// Creates a reader with an empty dynamic table whose maximum size is `maxTableSize`, which is
    /// also the limit on size updates (4,096 bytes is what every HTTP/2 connection starts with).
    init(maxTableSize: Int = 4_096, maxHeaderListSize: Int = HPACKBlockReader.defaultMaxHeaderListSize) {
        self.tableSizeLimit = max(0, maxTableSize)
        self.table = HPACKDynamicTable(maxSize: max(0, maxTableSize))
        self.maxHeaderListSize = maxHeaderListSize
    }

    /// Notes that blocks the sender encoded may have been lost: the entries in the table now may
    /// no longer be where the sender has them.
    mutating func markTableUncertain() {
        knownEntryCount = 0
        settleKnownEntries()
    }

    /// Supposes that the lost blocks added `number` entries: placeholders for them go just older
    /// than the entries known to be in place, which moves every older entry `number` indexes up,
    /// where the sender has it. Naming a placeholder is an error. Nothing changes while the table
    /// is known.
    mutating func insertPlaceholders(_ number: Int) {
        guard let known = knownEntryCount else { return }
        table.insertPlaceholders(number, below: known)
    }

    /// Once every entry left in the table was added after the uncertainty began (the older ones
    /// were evicted), the table is known again: an index past it refers to nothing on this side.
    private mutating func settleKnownEntries() {
        if let known = knownEntryCount, known >= table.count { knownEntryCount = nil }
    }

    /// The dynamic table's entries, newest (index 62) first.
    var dynamicTableEntries: [HPACKField] { table.entries }
    /// The dynamic table's size: the sum of its entries' sizes (RFC 7541 section 4.1).
    var dynamicTableSize: Int { table.size }
    /// The dynamic table's maximum size, as the last size update set it (RFC 7541 section 4.2).
    var dynamicTableMaxSize: Int { table.maxSize }

    /// Decodes one complete header block (a HEADERS frame's fragment and its CONTINUATIONs, joined)
    /// into its fields, in order, updating the dynamic table as the block says.
    ///
    /// - Throws: ``HPACKBlockError`` if the block breaks RFC 7541 or the header list is too large;
    ///   the error's offset counts from `block.startIndex`.
    mutating func decode(_ block: ArraySlice<UInt8>) throws(HPACKBlockError) -> [HPACKField] {
        var fields: [HPACKField] = []
        // No field representation is shorter than one byte.
        fields.reserveCapacity(Swift.min(block.count, 16))
        var listSize = 0
        var position = block.startIndex
        var atStart = true
        lastBlockUsedUncertainEntries = false
        while position < block.endIndex {
            let start = position
            let first = block[position]
            let field: HPACKField
            if first & 0x80 != 0 {
                // Section 6.1: an indexed field, 7-bit index.
                let index = try Self.readInteger(block, at: &position, prefixBits: 7, what: "index of an indexed field")
                field = try entry(at: index, block: block, representationStart: start)
            } else if first & 0x40 != 0 {
                // Section 6.2.1: a literal that the sender also added to its table.
                field = try readLiteral(block, at: &position, prefixBits: 6, neverIndexed: false)
                table.insert(field)
                if let known = knownEntryCount { knownEntryCount = known + 1 }
                settleKnownEntries()
            } else if first & 0x20 != 0 {
                try readTableSizeUpdate(block, at: &position, atStart: atStart)
                continue
            } else {
                // Sections 6.2.2 and 6.2.3: literals without indexing, the latter never indexed.
                field = try readLiteral(block, at: &position, prefixBits: 4, neverIndexed: first & 0x10 != 0)
            }
            atStart = false
            listSize += field.size
            fields.append(field)
            guard listSize <= maxHeaderListSize else {
                let offset = start - block.startIndex
                throw HPACKBlockError(
                    code: .headerListTooLarge,
                    message: "the field at byte \(offset) brings the header list to \(listSize) bytes, "
                        + "over the limit of \(maxHeaderListSize)",
                    byteOffset: offset
                )
            }
        }
        return fields
    }

    /// Reads a dynamic table size update (RFC 7541 section 6.3) and applies it.
    private mutating func readTableSizeUpdate(
        _ block: ArraySlice<UInt8>,
        at position: inout Int,
        atStart: Bool
    ) throws(HPACKBlockError) {
        let offset = position - block.startIndex
        // Section 4.2: updates may only come before the block's first field.
        guard atStart else {
            throw HPACKBlockError(
                code: .tableSizeUpdateNotAtStart,
                message: "a dynamic table size update at byte \(offset) follows a header field; "
                    + "it must come at the start of the block (RFC 7541 section 4.2)",
                byteOffset: offset
            )
        }
        let newSize = try Self.readInteger(block, at: &position, prefixBits: 5, what: "dynamic table size update")
        guard newSize <= tableSizeLimit else {
            throw HPACKBlockError(
                code: .tableSizeUpdateTooLarge,
                message: "the dynamic table size update at byte \(offset) asks for \(newSize) bytes, "
                    + "more than the limit of \(tableSizeLimit) (RFC 7541 section 6.3)",
                byteOffset: offset
            )
        }
        table.setMaxSize(newSize)
        settleKnownEntries()
    }

    /// Reads a literal field (RFC 7541 section 6.2) whose first byte is at `position`: a name index
    /// with a `prefixBits`-bit prefix, or 0 and a name literal, then the value literal.
    private mutating func readLiteral(
        _ block: ArraySlice<UInt8>,
        at position: inout Int,
        prefixBits: Int,
        neverIndexed: Bool
    ) throws(HPACKBlockError) -> HPACKField {
        let start = position
        let nameIndex = try Self.readInteger(
            block, at: &position, prefixBits: prefixBits, what: "name index of a literal")
        let name: [UInt8]
        if nameIndex == 0 {
            name = try Self.readString(block, at: &position, what: "name")
        } else {
            name = try entry(at: nameIndex, block: block, representationStart: start).name
        }
        let value = try Self.readString(block, at: &position, what: "value")
        return HPACKField(name: name, value: value, neverIndexed: neverIndexed)
    }

    /// The entry an index refers to, in the static table (1 to 61) or the dynamic table (62 on,
    /// newest first), as RFC 7541 section 2.3.3 lays out the index address space.
    private mutating func entry(
        at index: Int,
        block: ArraySlice<UInt8>,
        representationStart: Int
    ) throws(HPACKBlockError) -> HPACKField {
        if index >= 1, index <= HPACKStaticTable.count {
            return HPACKStaticTable.entries[index - 1]
        }
        let position = index - HPACKStaticTable.count - 1
        if index > HPACKStaticTable.count, let entry = table.entry(at: position) {
            if let known = knownEntryCount, position >= known { lastBlockUsedUncertainEntries = true }
            return entry
        }
        let offset = representationStart - block.startIndex
        if table.isPlaceholder(at: position) {
            throw HPACKBlockError(
                code: .invalidIndex,
                message: "the field at byte \(offset) has index \(index), an entry that a block the capture lost added",
                byteOffset: offset)
        }
        let message =
            index == 0
            ? "the field at byte \(offset) has index 0, which refers to no entry (RFC 7541 section 6.1)"
            : "the field at byte \(offset) has index \(index), beyond the static table's "
                + "\(HPACKStaticTable.count) entries and the dynamic table's \(table.count) (RFC 7541 section 2.3.3)"
        throw HPACKBlockError(code: .invalidIndex, message: message, byteOffset: offset)
    }
}
