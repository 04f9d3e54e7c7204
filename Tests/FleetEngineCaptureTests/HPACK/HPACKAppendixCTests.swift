import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

/// A field from text, for expectations.
private func field(_ name: String, _ value: String, neverIndexed: Bool = false) -> HPACKField {
    HPACKField(name: Array(name.utf8), value: Array(value.utf8), neverIndexed: neverIndexed)
}

/// One header block of an Appendix C example: the bytes, the fields they decode to, and the
/// dynamic table afterwards, newest first, with its size.
private struct AppendixCBlock: Sendable {
    var hex: String
    var fields: [HPACKField]
    var table: [HPACKField]
    var tableSize: Int
}

@Suite("HPACK: every example of RFC 7541 Appendix C, fields and dynamic table exact")
struct HPACKAppendixCTests {
    @Test(
        "C.1: integers with 5-bit and 8-bit prefixes",
        arguments: [
            (hex: "0a", prefixBits: 5, value: 10),
            (hex: "1f9a0a", prefixBits: 5, value: 1_337),
            (hex: "2a", prefixBits: 8, value: 42),
        ])
    func integerExamples(hex: String, prefixBits: Int, value: Int) throws {
        let bytes = hexBytes(hex)[...]
        var position = bytes.startIndex
        let decoded = try HPACKBlockReader.readInteger(bytes, at: &position, prefixBits: prefixBits, what: "integer")
        #expect(decoded == value)
        #expect(position == bytes.endIndex)
    }

    @Test("C.2.1: a literal with indexing enters the dynamic table")
    func literalWithIndexing() throws {
        var reader = HPACKBlockReader()
        let fields = try reader.decode(
            hexBytes("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")[...])
        #expect(fields == [field("custom-key", "custom-header")])
        #expect(reader.dynamicTableEntries == [field("custom-key", "custom-header")])
        #expect(reader.dynamicTableSize == 55)
    }

    @Test("C.2.2: a literal without indexing leaves the dynamic table empty")
    func literalWithoutIndexing() throws {
        var reader = HPACKBlockReader()
        let fields = try reader.decode(hexBytes("040c 2f73 616d 706c 652f 7061 7468")[...])
        #expect(fields == [field(":path", "/sample/path")])
        #expect(reader.dynamicTableEntries.isEmpty)
        #expect(reader.dynamicTableSize == 0)
    }

    @Test("C.2.3: a never-indexed literal is flagged and leaves the dynamic table empty")
    func literalNeverIndexed() throws {
        var reader = HPACKBlockReader()
        let fields = try reader.decode(hexBytes("1008 7061 7373 776f 7264 0673 6563 7265 74")[...])
        #expect(fields == [field("password", "secret", neverIndexed: true)])
        #expect(reader.dynamicTableEntries.isEmpty)
        #expect(reader.dynamicTableSize == 0)
    }

    @Test("C.2.4: an indexed field from the static table")
    func indexedField() throws {
        var reader = HPACKBlockReader()
        #expect(try reader.decode([0x82][...]) == [field(":method", "GET")])
        #expect(reader.dynamicTableEntries.isEmpty)
    }

    /// The header blocks of C.3 (requests, no Huffman), as the RFC prints them.
    static let c3 = [
        "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "8286 84be 5808 6e6f 2d63 6163 6865",
        "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
    ]
    /// The header blocks of C.4 (the same requests, Huffman-coded).
    static let c4 = [
        "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
        "8286 84be 5886 a8eb 1064 9cbf",
        "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
    ]
    /// The header blocks of C.5 (responses, no Huffman, 256-byte table).
    static let c5 = [
        """
        4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a
        3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d
        """,
        "4803 3330 37c1 c0bf",
        """
        88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04
        677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49
        553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31
        """,
    ]
    /// The header blocks of C.6 (the same responses, Huffman-coded).
    static let c6 = [
        """
        4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e
        919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3
        """,
        "4883 640e ffc1 c0bf",
        """
        88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7
        821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed
        4ee5 b106 3d50 07
        """,
    ]

    static let request1Fields = [
        field(":method", "GET"), field(":scheme", "http"), field(":path", "/"),
        field(":authority", "www.example.com"),
    ]
    static let request2Fields = request1Fields + [field("cache-control", "no-cache")]
    static let request3Fields = [
        field(":method", "GET"), field(":scheme", "https"), field(":path", "/index.html"),
        field(":authority", "www.example.com"), field("custom-key", "custom-value"),
    ]
    static let request1Table = [field(":authority", "www.example.com")]
    static let request2Table = [field("cache-control", "no-cache")] + request1Table
    static let request3Table = [field("custom-key", "custom-value")] + request2Table

    @Test("C.3: three requests without Huffman coding share one dynamic table")
    func requestsWithoutHuffman() throws {
        try decodeInOrder(
            maxTableSize: 4_096,
            [
                AppendixCBlock(
                    hex: Self.c3[0], fields: Self.request1Fields, table: Self.request1Table, tableSize: 57),
                AppendixCBlock(
                    hex: Self.c3[1], fields: Self.request2Fields, table: Self.request2Table, tableSize: 110),
                AppendixCBlock(
                    hex: Self.c3[2], fields: Self.request3Fields, table: Self.request3Table, tableSize: 164),
            ])
    }

    @Test("C.4: the same three requests with Huffman coding")
    func requestsWithHuffman() throws {
        try decodeInOrder(
            maxTableSize: 4_096,
            [
                AppendixCBlock(
                    hex: Self.c4[0], fields: Self.request1Fields, table: Self.request1Table, tableSize: 57),
                AppendixCBlock(
                    hex: Self.c4[1], fields: Self.request2Fields, table: Self.request2Table, tableSize: 110),
                AppendixCBlock(
                    hex: Self.c4[2], fields: Self.request3Fields, table: Self.request3Table, tableSize: 164),
            ])
    }

    static let date21 = field("date", "Mon, 21 Oct 2013 20:13:21 GMT")
    static let date22 = field("date", "Mon, 21 Oct 2013 20:13:22 GMT")
    static let location = field("location", "https://www.example.com")
    static let cookie = field("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1")
    static let response1Fields = [field(":status", "302"), field("cache-control", "private"), date21, location]
    static let response2Fields = [field(":status", "307"), field("cache-control", "private"), date21, location]
    static let response3Fields = [
        field(":status", "200"), field("cache-control", "private"), date22, location,
        field("content-encoding", "gzip"), cookie,
    ]
    static let response1Table = [location, date21, field("cache-control", "private"), field(":status", "302")]
    // The 42-byte ":status: 302" is evicted to make room for ":status: 307".
    static let response2Table = [field(":status", "307"), location, date21, field("cache-control", "private")]
    // The 98-byte cookie evicts all but the gzip entry and the new date.
    static let response3Table = [cookie, field("content-encoding", "gzip"), date22]

    @Test("C.5: three responses without Huffman coding evict from a 256-byte table")
    func responsesWithoutHuffman() throws {
        try decodeInOrder(
            maxTableSize: 256,
            [
                AppendixCBlock(
                    hex: Self.c5[0], fields: Self.response1Fields, table: Self.response1Table, tableSize: 222),
                AppendixCBlock(
                    hex: Self.c5[1], fields: Self.response2Fields, table: Self.response2Table, tableSize: 222),
                AppendixCBlock(
                    hex: Self.c5[2], fields: Self.response3Fields, table: Self.response3Table, tableSize: 215),
            ])
    }

    @Test("C.6: the same three responses with Huffman coding")
    func responsesWithHuffman() throws {
        try decodeInOrder(
            maxTableSize: 256,
            [
                AppendixCBlock(
                    hex: Self.c6[0], fields: Self.response1Fields, table: Self.response1Table, tableSize: 222),
                AppendixCBlock(
                    hex: Self.c6[1], fields: Self.response2Fields, table: Self.response2Table, tableSize: 222),
                AppendixCBlock(
                    hex: Self.c6[2], fields: Self.response3Fields, table: Self.response3Table, tableSize: 215),
            ])
    }

    /// Decodes the blocks with one reader, in order, checking fields and table after each.
    private func decodeInOrder(maxTableSize: Int, _ blocks: [AppendixCBlock]) throws {
        var reader = HPACKBlockReader(maxTableSize: maxTableSize)
        for block in blocks {
            let fields = try reader.decode(hexBytes(block.hex)[...])
            #expect(fields == block.fields)
            #expect(reader.dynamicTableEntries == block.table)
            #expect(reader.dynamicTableSize == block.tableSize)
            #expect(reader.dynamicTableSize == block.table.reduce(0) { $0 + $1.size })
        }
    }
}
