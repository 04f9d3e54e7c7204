import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

/// A malformed block and the error it must give.
struct HPACKMalformedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var code: HPACKBlockError.Code
    var byteOffset: Int
    var testDescription: String { name }
}

@Suite("HPACK malformed blocks: the right error at the right offset, never a crash")
struct HPACKMalformedBlockTests {
    static let eosString = [0x84, 0xFF, 0xFF, 0xFF, 0xFF] as [UInt8]

    static let cases: [HPACKMalformedCase] = [
        .init(name: "indexed field cut after its prefix", bytes: [0xFF], code: .truncatedInteger, byteOffset: 0),
        .init(
            name: "indexed field cut in its continuation", bytes: [0x82, 0xFF, 0x80], code: .truncatedInteger,
            byteOffset: 1),
        .init(name: "size update cut", bytes: [0x3F, 0xE1], code: .truncatedInteger, byteOffset: 0),
        .init(
            name: "integer of 11 bytes", bytes: [0xFF] + Array(repeating: 0x80, count: 9) + [0x01],
            code: .integerOverflow,
            byteOffset: 0),
        .init(
            name: "integer over Int.max", bytes: [0x82, 0xFF] + Array(repeating: 0xFF, count: 8) + [0x7F],
            code: .integerOverflow, byteOffset: 1),
        .init(name: "string length cut", bytes: [0x40, 0x7F], code: .truncatedInteger, byteOffset: 1),
        .init(name: "name literal missing", bytes: [0x40], code: .truncatedString, byteOffset: 1),
        .init(name: "name literal cut", bytes: [0x40, 0x05, 0x61], code: .truncatedString, byteOffset: 1),
        .init(name: "value literal missing", bytes: [0x40, 0x01, 0x61], code: .truncatedString, byteOffset: 3),
        .init(name: "value after indexed name cut", bytes: [0x04, 0x03, 0x61], code: .truncatedString, byteOffset: 1),
        .init(
            name: "string longer than any block", bytes: [0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0x0F], code: .truncatedString,
            byteOffset: 1),
        .init(
            name: "Huffman padding of 8 bits", bytes: [0x40, 0x81, 0xFF, 0x00], code: .invalidHuffmanPadding,
            byteOffset: 2),
        .init(
            name: "Huffman padding of zeros", bytes: [0x04, 0x81, 0x18], code: .invalidHuffmanPadding, byteOffset: 2),
        .init(
            name: "Huffman padding wrong in a value after a good name", bytes: [0x10, 0x81, 0x1F, 0x82, 0x1F, 0x1E],
            code: .invalidHuffmanPadding, byteOffset: 5),
        .init(name: "EOS in a value", bytes: [0x04] + eosString, code: .huffmanEndOfString, byteOffset: 5),
        .init(name: "EOS in a name", bytes: [0x00] + eosString + [0x00], code: .huffmanEndOfString, byteOffset: 5),
        .init(name: "indexed field with index 0", bytes: [0x80], code: .invalidIndex, byteOffset: 0),
        .init(name: "index 0 after a good field", bytes: [0x82, 0x80], code: .invalidIndex, byteOffset: 1),
        .init(name: "index 62 with an empty dynamic table", bytes: [0xBE], code: .invalidIndex, byteOffset: 0),
        .init(name: "huge index", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F], code: .invalidIndex, byteOffset: 0),
        .init(name: "literal name index 62", bytes: [0x7E, 0x00], code: .invalidIndex, byteOffset: 0),
        .init(name: "never-indexed name index 70", bytes: [0x1F, 0x37, 0x00], code: .invalidIndex, byteOffset: 0),
        .init(
            name: "index 63 with one dynamic entry", bytes: [0x40, 0x01, 0x61, 0x00, 0xBF], code: .invalidIndex,
            byteOffset: 4),
        .init(name: "size update to 4,097", bytes: [0x3F, 0xE2, 0x1F], code: .tableSizeUpdateTooLarge, byteOffset: 0),
        .init(name: "size update after a field", bytes: [0x82, 0x20], code: .tableSizeUpdateNotAtStart, byteOffset: 1),
        .init(
            name: "size update after a size update and a field", bytes: [0x20, 0x82, 0x3F, 0x01],
            code: .tableSizeUpdateNotAtStart, byteOffset: 2),
    ]

    @Test("Each malformed block gives its error code at its offset", arguments: cases)
    func malformedBlock(_ malformed: HPACKMalformedCase) {
        var reader = HPACKBlockReader()
        let error = #expect(throws: HPACKBlockError.self) { try reader.decode(malformed.bytes[...]) }
        #expect(error?.code == malformed.code)
        #expect(error?.byteOffset == malformed.byteOffset)
        #expect(error?.message.contains("byte \(malformed.byteOffset)") == true)
    }

    @Test("A size update below the limit passes where 4,097 fails; a lowered limit applies to updates")
    func sizeUpdateLimit() throws {
        var reader = HPACKBlockReader()
        #expect(try reader.decode([0x3F, 0xE1, 0x1F][...]).isEmpty)
        #expect(reader.dynamicTableMaxSize == 4_096)
        reader.maxTableSize = 100
        let error = #expect(throws: HPACKBlockError.self) { try reader.decode([0x3F, 0x46][...]) }
        #expect(error?.code == .tableSizeUpdateTooLarge)
        #expect(try reader.decode([0x3F, 0x45][...]).isEmpty)
        #expect(reader.dynamicTableMaxSize == 100)
    }

    @Test("Truncating each Appendix C block at every offset gives the fields before the cut or an error inside it")
    func truncationAtEveryOffset() throws {
        let sequences: [(maxTableSize: Int, blocks: [String])] = [
            (4_096, HPACKAppendixCTests.c3), (4_096, HPACKAppendixCTests.c4),
            (256, HPACKAppendixCTests.c5), (256, HPACKAppendixCTests.c6),
        ]
        for sequence in sequences {
            var reader = HPACKBlockReader(maxTableSize: sequence.maxTableSize)
            for hex in sequence.blocks {
                let block = hexBytes(hex)
                Self.checkEveryTruncation(of: block, reader: reader)
                _ = try reader.decode(block[...])
            }
        }
        var binary = HPACKBlockBuilder()
        binary.tableSizeUpdate(1_000)
        binary.literal(
            name: HPACKBlockBuilder.utf8("x-bin"), value: [0x00, 0xFF, 0x80], kind: .neverIndexed, huffman: true)
        binary.literal(nameIndex: 28, value: Array(repeating: 0x39, count: 200), kind: .incrementalIndexing)
        binary.indexed(62)
        Self.checkEveryTruncation(of: binary.bytes, reader: HPACKBlockReader())
    }

    /// Decodes every prefix of `block` with a copy of `reader`: each must either decode to a
    /// prefix of the whole block's fields or fail with an offset inside the prefix.
    static func checkEveryTruncation(of block: [UInt8], reader: HPACKBlockReader) {
        var whole = reader
        guard let fields = try? whole.decode(block[...]) else {
            Issue.record("the whole block does not decode")
            return
        }
        for length in 0..<block.count {
            var copy = reader
            do {
                let decoded = try copy.decode(block.prefix(length))
                #expect(decoded == Array(fields.prefix(decoded.count)))
            } catch {
                #expect(error.byteOffset >= 0 && error.byteOffset <= length)
            }
        }
    }

    @Test("Ten thousand random corruptions of valid blocks never crash and report offsets inside the block")
    func randomCorruptions() throws {
        var random = CaptureTestRandomGenerator(seed: 0x4850_4143_4B)
        var source = HPACKBlockBuilder()
        source.literal(
            name: HPACKBlockBuilder.utf8("te"), value: HPACKBlockBuilder.utf8("trailers"), kind: .incrementalIndexing,
            huffman: true)
        source.literal(
            nameIndex: 4, value: HPACKBlockBuilder.utf8("/maps.fleetengine.v1.TripService/GetTrip"),
            kind: .withoutIndexing, huffman: true)
        source.literal(name: HPACKBlockBuilder.utf8("x-bin"), value: [0x00, 0xFF, 0x80], kind: .neverIndexed)
        source.indexed(62)
        source.indexed(31)
        for _ in 0..<10_000 {
            var bytes = source.bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            let length = Int.random(in: 0...bytes.count, using: &random)
            var reader = HPACKBlockReader(maxTableSize: 256)
            do {
                _ = try reader.decode(bytes.prefix(length))
            } catch {
                #expect(error.byteOffset >= 0 && error.byteOffset <= length)
            }
        }
    }
}
