import Testing

@testable import FleetEngineCapture

@Suite("HPACK block reader: raw bytes kept, literal kinds, dynamic table sizing, header list bound")
struct HPACKBlockReaderTests {
    /// A gRPC "true binary" value: a 0x00 marker, then bytes that are not UTF-8 (a lone
    /// continuation byte, an overlong lead, 0xFF, a truncated sequence).
    static let binaryValue: [UInt8] = [0x00, 0xFF, 0xFE, 0x80, 0xC0, 0xAF, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0x00, 0xF8]
    static let binaryName = HPACKBlockBuilder.utf8("grpc-status-details-bin")

    @Test(
        "A value that is not UTF-8 comes back byte for byte, raw or Huffman-coded, and when indexed",
        arguments: [false, true])
    func binaryValueSurvives(huffman: Bool) throws {
        var block = HPACKBlockBuilder()
        block.literal(name: Self.binaryName, value: Self.binaryValue, kind: .incrementalIndexing, huffman: huffman)
        block.literal(name: Self.binaryName, value: Self.binaryValue, kind: .neverIndexed, huffman: huffman)
        block.indexed(62)
        block.literal(nameIndex: 62, value: [0xFF, 0x00], kind: .withoutIndexing, huffman: huffman)
        var reader = HPACKBlockReader()
        let fields = try reader.decode(block.bytes[...])
        #expect(
            fields == [
                HPACKField(name: Self.binaryName, value: Self.binaryValue),
                HPACKField(name: Self.binaryName, value: Self.binaryValue, neverIndexed: true),
                HPACKField(name: Self.binaryName, value: Self.binaryValue),
                HPACKField(name: Self.binaryName, value: [0xFF, 0x00]),
            ])
        #expect(reader.dynamicTableEntries == [HPACKField(name: Self.binaryName, value: Self.binaryValue)])
        #expect(reader.dynamicTableSize == Self.binaryName.count + Self.binaryValue.count + 32)
    }

    @Test("Never-indexed and without-indexing literals with indexed names keep the flag and the table empty")
    func literalKindsWithIndexedNames() throws {
        var block = HPACKBlockBuilder()
        block.literal(nameIndex: 23, value: HPACKBlockBuilder.utf8("Bearer x"), kind: .neverIndexed)
        block.literal(nameIndex: 4, value: HPACKBlockBuilder.utf8("/a.B/C"), kind: .withoutIndexing, huffman: true)
        var reader = HPACKBlockReader()
        #expect(
            try reader.decode(block.bytes[...]) == [
                HPACKField(
                    name: HPACKBlockBuilder.utf8("authorization"), value: HPACKBlockBuilder.utf8("Bearer x"),
                    neverIndexed: true),
                HPACKField(name: HPACKBlockBuilder.utf8(":path"), value: HPACKBlockBuilder.utf8("/a.B/C")),
            ])
        #expect(reader.dynamicTableEntries.isEmpty)
    }

    @Test("Every static table entry is reachable by index, 1 through 61, in Appendix A's order")
    func staticTable() throws {
        var block = HPACKBlockBuilder()
        for index in 1...61 { block.indexed(index) }
        var reader = HPACKBlockReader()
        let fields = try reader.decode(block.bytes[...])
        #expect(fields.count == 61)
        #expect(fields.first == HPACKField(name: HPACKBlockBuilder.utf8(":authority"), value: []))
        #expect(
            fields[15]
                == HPACKField(
                    name: HPACKBlockBuilder.utf8("accept-encoding"), value: HPACKBlockBuilder.utf8("gzip, deflate")))
        #expect(fields.last == HPACKField(name: HPACKBlockBuilder.utf8("www-authenticate"), value: []))
    }

    @Test("Size updates at the start of a block, one or several, set the maximum size and evict")
    func tableSizeUpdates() throws {
        var reader = HPACKBlockReader()
        var first = HPACKBlockBuilder()
        first.literal(name: [0x61], value: [0x62], kind: .incrementalIndexing)
        first.literal(name: [0x63], value: [0x64], kind: .incrementalIndexing)
        _ = try reader.decode(first.bytes[...])
        #expect(reader.dynamicTableSize == 68)

        var shrink = HPACKBlockBuilder()
        shrink.tableSizeUpdate(40)
        shrink.indexed(62)
        #expect(try reader.decode(shrink.bytes[...]) == [HPACKField(name: [0x63], value: [0x64])])
        #expect(reader.dynamicTableEntries == [HPACKField(name: [0x63], value: [0x64])])
        #expect(reader.dynamicTableMaxSize == 40)

        var twice = HPACKBlockBuilder()
        twice.tableSizeUpdate(0)
        twice.tableSizeUpdate(4_096)
        #expect(try reader.decode(twice.bytes[...]).isEmpty)
        #expect(reader.dynamicTableEntries.isEmpty)
        #expect(reader.dynamicTableSize == 0)
        #expect(reader.dynamicTableMaxSize == 4_096)
    }

    @Test(
        "Changing maxTableSize leaves the table: the encoder's size update lowers it (evicting) or raises it (RFC 7541 section 4.2)"
    )
    func maxTableSizeChanges() throws {
        var reader = HPACKBlockReader()
        var block = HPACKBlockBuilder()
        for name in [0x61, 0x62, 0x63] as [UInt8] {
            block.literal(name: [name], value: [], kind: .incrementalIndexing)
        }
        _ = try reader.decode(block.bytes[...])
        #expect(reader.dynamicTableSize == 99)

        reader.maxTableSize = 70
        #expect(reader.dynamicTableMaxSize == 4_096)
        #expect(reader.dynamicTableEntries.map(\.name) == [[0x63], [0x62], [0x61]])
        var shrink = HPACKBlockBuilder()
        shrink.tableSizeUpdate(70)
        _ = try reader.decode(shrink.bytes[...])
        #expect(reader.dynamicTableMaxSize == 70)
        #expect(reader.dynamicTableEntries.map(\.name) == [[0x63], [0x62]])

        reader.maxTableSize = 8_192
        #expect(reader.dynamicTableMaxSize == 70)
        var grow = HPACKBlockBuilder()
        grow.tableSizeUpdate(8_192)
        _ = try reader.decode(grow.bytes[...])
        #expect(reader.dynamicTableMaxSize == 8_192)
        #expect(reader.dynamicTableEntries.map(\.name) == [[0x63], [0x62]])
    }

    @Test("A field larger than the whole table empties it and is still decoded (section 4.4)")
    func entryLargerThanTable() throws {
        var reader = HPACKBlockReader(maxTableSize: 64)
        var block = HPACKBlockBuilder()
        block.literal(name: [0x61], value: [0x62], kind: .incrementalIndexing)
        block.literal(name: [0x63], value: Array(repeating: 0x64, count: 40), kind: .incrementalIndexing)
        let fields = try reader.decode(block.bytes[...])
        #expect(fields.count == 2)
        #expect(fields[1].value.count == 40)
        #expect(reader.dynamicTableEntries.isEmpty)
        #expect(reader.dynamicTableSize == 0)
    }

    @Test("Many evictions in a long run keep the table's contents and size right")
    func longRunOfEvictions() throws {
        var reader = HPACKBlockReader(maxTableSize: 200)
        for round in 0..<500 {
            var block = HPACKBlockBuilder()
            block.literal(name: [UInt8(round % 256)], value: [UInt8(round / 256)], kind: .incrementalIndexing)
            _ = try reader.decode(block.bytes[...])
        }
        // Five 34-byte entries fit in 200 bytes; the newest is round 499.
        #expect(reader.dynamicTableSize == 170)
        #expect(reader.dynamicTableEntries.map(\.name) == [[243], [242], [241], [240], [239]])
        #expect(reader.dynamicTableEntries.map(\.value) == [[1], [1], [1], [1], [1]])
    }

    @Test("An integer of 10 bytes is read; zero groups are legal padding")
    func longestInteger() throws {
        var reader = HPACKBlockReader()
        // A size update of 31 + 1, with eight zero groups before the final byte.
        let block: [UInt8] = [0x3F, 0x81] + Array(repeating: 0x80, count: 7) + [0x00, 0x82]
        #expect(
            try reader.decode(block[...]) == [
                HPACKField(name: HPACKBlockBuilder.utf8(":method"), value: HPACKBlockBuilder.utf8("GET"))
            ])
        #expect(reader.dynamicTableMaxSize == 32)
    }

    @Test("A block handed over as a slice of a larger array decodes and counts offsets from the slice")
    func sliceOffsets() throws {
        let bytes: [UInt8] = [0xAA, 0xBB, 0x82, 0x80, 0xCC]
        var reader = HPACKBlockReader()
        #expect(
            try reader.decode(bytes[2..<3]) == [
                HPACKField(name: HPACKBlockBuilder.utf8(":method"), value: HPACKBlockBuilder.utf8("GET"))
            ])
        let error = #expect(throws: HPACKBlockError.self) { try reader.decode(bytes[2..<4]) }
        #expect(error?.code == .invalidIndex)
        #expect(error?.byteOffset == 1)
    }

    @Test("The header list bound counts name + value + 32 per field and stops an indexed-field amplification")
    func headerListBound() throws {
        var small = HPACKBlockReader(maxHeaderListSize: 100)
        // :method GET counts 7 + 3 + 32 = 42; two fit, the third crosses 100.
        let error = #expect(throws: HPACKBlockError.self) { try small.decode([0x82, 0x82, 0x82][...]) }
        #expect(error?.code == .headerListTooLarge)
        #expect(error?.byteOffset == 2)
        #expect(try small.decode([0x82, 0x82][...]).count == 2)

        // One 4,023-byte entry, then one byte per copy of it.
        var reader = HPACKBlockReader()
        var block = HPACKBlockBuilder()
        block.literal(name: [0x78], value: Array(repeating: 0x79, count: 3_990), kind: .incrementalIndexing)
        let start = block.bytes.count
        block.bytes += Array(repeating: 0xBE, count: 300)
        let amplified = #expect(throws: HPACKBlockError.self) { try reader.decode(block.bytes[...]) }
        #expect(amplified?.code == .headerListTooLarge)
        // With the literal and n copies the list counts 4,023 * (n + 1) bytes: over 1 MiB from n = 260.
        #expect(amplified?.byteOffset == start + 259)
    }
}
