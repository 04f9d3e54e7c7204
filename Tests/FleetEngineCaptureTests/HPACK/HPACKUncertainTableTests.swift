import Testing

@testable import FleetEngineCapture

@Suite("HPACK after lost blocks: entries from before are uncertain, entries added after are known")
struct HPACKUncertainTableTests {
    /// A block that adds `x-<name>: <value>` to the dynamic table.
    static func adding(_ name: String, _ value: String) -> [UInt8] {
        var block = HPACKBlockBuilder()
        block.literal(
            name: HPACKBlockBuilder.utf8("x-" + name), value: HPACKBlockBuilder.utf8(value), kind: .incrementalIndexing)
        return block.bytes
    }

    /// A block that names dynamic-table entries by index.
    static func naming(_ indexes: [Int]) -> [UInt8] {
        var block = HPACKBlockBuilder()
        for index in indexes { block.indexed(index) }
        return block.bytes
    }

    @Test("a block naming an entry from before is uncertain; one naming only entries added after is not")
    func olderEntriesAreUncertain() throws {
        var reader = HPACKBlockReader()
        _ = try reader.decode(Self.adding("old", "1")[...])
        _ = try reader.decode(Self.naming([62])[...])
        #expect(!reader.lastBlockUsedUncertainEntries)

        reader.markTableUncertain()
        let stale = try reader.decode(Self.naming([62])[...])
        #expect(stale.map(\.value) == [HPACKBlockBuilder.utf8("1")])
        #expect(reader.lastBlockUsedUncertainEntries)

        // An entry added after the loss sits at the same index on both sides; naming it, in the
        // same block that added it or a later one, is certain. The older entry is now 63.
        var both = HPACKBlockBuilder()
        both.literal(
            name: HPACKBlockBuilder.utf8("x-new"), value: HPACKBlockBuilder.utf8("2"), kind: .incrementalIndexing)
        both.indexed(62)
        _ = try reader.decode(both.bytes[...])
        #expect(!reader.lastBlockUsedUncertainEntries)
        _ = try reader.decode(Self.naming([62])[...])
        #expect(!reader.lastBlockUsedUncertainEntries)
        _ = try reader.decode(Self.naming([62, 63])[...])
        #expect(reader.lastBlockUsedUncertainEntries)
        // Static entries and literals never are.
        _ = try reader.decode(Self.naming([2, 8])[...])
        #expect(!reader.lastBlockUsedUncertainEntries)
    }

    @Test("once every entry from before is evicted, the table is known again")
    func evictionSettlesTheTable() throws {
        // Each entry is 32 + 7 + 1 = 40 bytes: a 100-byte table holds two.
        var reader = HPACKBlockReader(maxTableSize: 100)
        _ = try reader.decode(Self.adding("aaaaa", "1")[...])
        _ = try reader.decode(Self.adding("bbbbb", "2")[...])
        reader.markTableUncertain()
        #expect(reader.knownEntryCount == 0)
        _ = try reader.decode(Self.adding("ccccc", "3")[...])
        #expect(reader.knownEntryCount == 1)
        _ = try reader.decode(Self.naming([63])[...])
        #expect(reader.lastBlockUsedUncertainEntries)
        _ = try reader.decode(Self.adding("ddddd", "4")[...])
        #expect(reader.knownEntryCount == nil)
        _ = try reader.decode(Self.naming([62, 63])[...])
        #expect(!reader.lastBlockUsedUncertainEntries)
        // An index past the table is an error, as it is with a table that was never uncertain.
        #expect(throws: HPACKBlockError.self) { try reader.decode(Self.naming([64])[...]) }
    }

    @Test("a table that is empty when blocks are lost is known at once: nothing in it can be misplaced")
    func emptyTableIsKnown() throws {
        var reader = HPACKBlockReader()
        reader.markTableUncertain()
        #expect(reader.knownEntryCount == nil)
    }
}
