import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite("HPACK Huffman code: Appendix B's codes, every symbol decoded, section 5.2's padding and EOS rules")
struct HPACKHuffmanTests {
    @Test(
        "The canonical codes built from the lengths are Appendix B's",
        arguments: [
            (symbol: 0, code: 0x1ff8, length: 13),
            (symbol: 10, code: 0x3fff_fffc, length: 30),
            (symbol: 32, code: 0x14, length: 6),
            (symbol: 48, code: 0x0, length: 5),
            (symbol: 58, code: 0x5c, length: 7),
            (symbol: 97, code: 0x3, length: 5),
            (symbol: 122, code: 0x7b, length: 7),
            (symbol: 126, code: 0x1ffd, length: 13),
            (symbol: 127, code: 0xfff_fffc, length: 28),
            (symbol: 128, code: 0xf_ffe6, length: 20),
            (symbol: 200, code: 0x3ff_ffe2, length: 26),
            (symbol: 255, code: 0x3ff_ffee, length: 26),
            (symbol: 256, code: 0x3fff_ffff, length: 30),
        ])
    func appendixBCodes(symbol: Int, code: Int, length: Int) {
        #expect(HPACKHuffman.codes[symbol] == UInt32(code))
        #expect(Int(HPACKHuffman.codeLengths[symbol]) == length)
    }

    @Test("The code is complete: 257 codes whose Kraft sum is exactly 1, so the tree has 256 inner nodes")
    func codeIsComplete() {
        #expect(HPACKHuffman.codeLengths.count == 257)
        #expect(HPACKHuffman.codeLengths.reduce(0) { $0 + (1 << (30 - Int($1))) } == 1 << 30)
        #expect(HPACKHuffman.transitions.count == 256 * 16)
    }

    @Test("Each of the 256 byte values decodes alone, and all of them in one string")
    func everySymbol() {
        for symbol in 0..<256 {
            #expect(HPACKHuffman.decode(HPACKBlockBuilder.huffmanCoded([symbol])[...]) == .success([UInt8(symbol)]))
        }
        let all = Array(0..<256) + Array((0..<256).reversed())
        #expect(HPACKHuffman.decode(HPACKBlockBuilder.huffmanCoded(all)[...]) == .success(all.map { UInt8($0) }))
    }

    @Test("C.4.1's www.example.com decodes; an empty string decodes to nothing")
    func rfcExampleAndEmptyString() {
        let example = hexBytes("f1e3 c2e5 f23a 6ba0 ab90 f4ff")
        #expect(HPACKHuffman.decode(example[...]) == .success(Array("www.example.com".utf8)))
        #expect(HPACKHuffman.decode([][...]) == .success([]))
    }

    @Test(
        "Padding of 0 to 7 one bits is accepted after a symbol of any length",
        arguments: 0...7)
    func validPadding(bits: Int) {
        // 'a' has 5 bits; adding 3 + 8k ones lines it up, and other symbols need other paddings:
        // find one whose length plus `bits` is a multiple of 8.
        let symbol = (0..<256).first { (Int(HPACKHuffman.codeLengths[$0]) + bits) % 8 == 0 } ?? 0
        let coded = HPACKBlockBuilder.huffmanCoded([symbol], padding: bits)
        #expect(HPACKHuffman.decode(coded[...]) == .success([UInt8(symbol)]))
    }

    @Test("Padding of 8 or more one bits is too long (section 5.2)")
    func paddingTooLong() {
        #expect(HPACKHuffman.decode([0xFF][...]) == .failure(.paddingTooLong(byteIndex: 0)))
        // 'a' (00011) then 3 + 8 ones.
        #expect(HPACKHuffman.decode([0x1F, 0xFF][...]) == .failure(.paddingTooLong(byteIndex: 1)))
        // 29 ones: all of EOS but its last bit, then 3 more padding bits to end the byte.
        #expect(HPACKHuffman.decode([0xFF, 0xFF, 0xFF, 0xF8][...]) == .failure(.paddingNotOnes(byteIndex: 3)))
        #expect(HPACKHuffman.decode([0xFF, 0xFF, 0xFF][...]) == .failure(.paddingTooLong(byteIndex: 2)))
    }

    @Test("Padding that is not all ones is rejected (section 5.2)")
    func paddingNotOnes() {
        // 'a' (00011) then 000.
        #expect(HPACKHuffman.decode([0x18][...]) == .failure(.paddingNotOnes(byteIndex: 0)))
        // 'a' then 110.
        #expect(HPACKHuffman.decode([0x1E][...]) == .failure(.paddingNotOnes(byteIndex: 0)))
        // 'a' then the first 3 bits of the code of ' ' (010100): a string cut inside a code.
        let cut = HPACKBlockBuilder.huffmanCoded([0x61, 0x20])
        #expect(cut.count == 2)
        #expect(HPACKHuffman.decode(cut.prefix(1)) == .failure(.paddingNotOnes(byteIndex: 0)))
    }

    @Test("An EOS symbol inside a string is rejected at the byte where its code ends (section 5.2)")
    func endOfStringSymbol() {
        #expect(HPACKHuffman.decode([0xFF, 0xFF, 0xFF, 0xFF][...]) == .failure(.endOfString(byteIndex: 3)))
        // 'a' (5 bits) then EOS (30 bits) ends in bit 35, the fifth byte.
        let afterSymbol = HPACKBlockBuilder.huffmanCoded([0x61, 256])
        #expect(afterSymbol.count == 5)
        #expect(HPACKHuffman.decode(afterSymbol[...]) == .failure(.endOfString(byteIndex: 4)))
        // EOS between two symbols.
        let between = HPACKBlockBuilder.huffmanCoded([0x61, 256, 0x61])
        #expect(HPACKHuffman.decode(between[...]) == .failure(.endOfString(byteIndex: 4)))
    }
}
