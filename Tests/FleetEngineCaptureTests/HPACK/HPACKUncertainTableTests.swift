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

    /// A request block: `:method POST` and `:scheme http` from the static table, then `names`.
    static func request(naming indexes: [Int]) -> [UInt8] {
        var block = HPACKBlockBuilder()
        block.indexed(3)
        block.indexed(6)
        for index in indexes { block.indexed(index) }
        return block.bytes
    }

    /// A decoder whose table holds, newest first, `x-a: 1`, `:path: /svc/M` and `x-z: 0`, as the
    /// first request put them; the sender then added `x-b: 2` in a block the capture lost.
    static func decoderAfterLostBlock() throws -> HeaderBlockDecoder {
        var first = HPACKBlockBuilder()
        first.indexed(3)
        first.indexed(6)
        first.literal(
            name: HPACKBlockBuilder.utf8("x-z"), value: HPACKBlockBuilder.utf8("0"), kind: .incrementalIndexing)
        first.literal(nameIndex: 4, value: HPACKBlockBuilder.utf8("/svc/M"), kind: .incrementalIndexing)
        first.literal(
            name: HPACKBlockBuilder.utf8("x-a"), value: HPACKBlockBuilder.utf8("1"), kind: .incrementalIndexing)
        var decoder = HeaderBlockDecoder()
        _ = try decoder.decode(first.bytes, byteOffset: 0, streamID: 1, sentByClient: true)
        decoder.markTableUncertain()
        return decoder
    }

    @Test("a block that reads out of order with the table as it stands is read with the older entries moved")
    func realignedWhenMalformed() throws {
        var decoder = try Self.decoderAfterLostBlock()
        // The sender's table: x-b (62), x-a (63), :path (64), x-z (65). Here 64 is x-z and 63 is
        // :path, which would put `x-z` before `:path`.
        let fields = try decoder.decode(Self.request(naming: [64, 63]), byteOffset: 0, streamID: 5, sentByClient: true)
        #expect(fields.map(\.name) == [":method", ":scheme", ":path", "x-a"])
        #expect(fields[2].value == "/svc/M")
        #expect(decoder.lastRealignment == 1)
        #expect(decoder.lastBlockWasUncertain)
        // From then on the moved table reads the sender's blocks as they are.
        let next = try decoder.decode(
            Self.request(naming: [64, 63, 65]), byteOffset: 0, streamID: 7, sentByClient: true)
        #expect(
            next.map { $0.name + "=" + $0.value } == [":method=POST", ":scheme=http", ":path=/svc/M", "x-a=1", "x-z=0"])
        #expect(decoder.lastRealignment == nil)
        #expect(decoder.lastBlockWasUncertain)
    }

    @Test(
        "a block that names an index past the table is read with the older entries moved, when that makes sense of it")
    func realignedWhenPastTheTable() throws {
        var decoder = try Self.decoderAfterLostBlock()
        // Index 65 (x-z on the sender's side) is past this side's three entries.
        let fields = try decoder.decode(Self.request(naming: [64, 65]), byteOffset: 0, streamID: 5, sentByClient: true)
        #expect(fields.map { $0.name + "=" + $0.value } == [":method=POST", ":scheme=http", ":path=/svc/M", "x-z=0"])
        #expect(decoder.lastRealignment == 1)
    }

    @Test("a block naming the lost entry itself cannot be read under any supposition: it is undecodable")
    func lostEntryNamed() throws {
        var decoder = try Self.decoderAfterLostBlock()
        #expect(throws: CaptureError.self) {
            try decoder.decode(Self.request(naming: [64, 62, 70]), byteOffset: 0, streamID: 5, sentByClient: true)
        }
    }

    @Test("without a loss, a malformed block is not second-guessed")
    func knownTableIsNotMoved() throws {
        var first = HPACKBlockBuilder()
        first.literal(
            name: HPACKBlockBuilder.utf8("x-z"), value: HPACKBlockBuilder.utf8("0"), kind: .incrementalIndexing)
        first.literal(nameIndex: 4, value: HPACKBlockBuilder.utf8("/svc/M"), kind: .incrementalIndexing)
        var decoder = HeaderBlockDecoder()
        _ = try decoder.decode(first.bytes, byteOffset: 0, streamID: 1, sentByClient: true)
        let fields = try decoder.decode(Self.request(naming: [63, 62]), byteOffset: 0, streamID: 3, sentByClient: true)
        #expect(fields.map(\.name) == [":method", ":scheme", "x-z", ":path"])
        #expect(decoder.lastRealignment == nil)
        #expect(
            !HeaderBlockDecoder.isWellFormed(
                [HPACKField(name: Array("x-z".utf8), value: []), HPACKField(name: Array(":path".utf8), value: [])],
                sentByClient: true))
    }

    @Test("a table that is empty when blocks are lost is known at once: nothing in it can be misplaced")
    func emptyTableIsKnown() throws {
        var reader = HPACKBlockReader()
        reader.markTableUncertain()
        #expect(reader.knownEntryCount == nil)
    }
}
