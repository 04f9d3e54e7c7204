import NIOCore
import NIOHPACK
import Testing

@testable import FleetEngineCapture

@Suite("HPACK cross-check: blocks from NIOHPACK's encoder decode to the fields it was given, in order")
struct HPACKNIOCrossCheckTests {
    /// How the encoder is asked to represent a field.
    enum Indexing: CaseIterable {
        case indexable
        case nonIndexed
        case neverIndexed
    }

    /// Names from the static table, gRPC's own, and a few made up; values drawn from small pools
    /// so that the encoder finds full and name-only matches in its tables.
    static let names = [
        ":method", ":path", ":authority", ":scheme", ":status", "content-type", "te", "user-agent", "grpc-timeout",
        "grpc-encoding", "grpc-accept-encoding", "grpc-status", "grpc-message", "authorization",
        "x-goog-request-params",
        "x-trace-bin", "cookie", "accept-encoding", "www-authenticate",
    ]
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-_./:;=+%~ ABCXYZ\t\"'<>éü日本\u{7F}\u{1}")

    static func randomValue(using random: inout CaptureTestRandomGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return ""
        case 1...5:
            return ["POST", "application/grpc", "trailers", "0", "gzip", "/a.B/C", "10S"].randomElement(using: &random)
                ?? ""
        default:
            let length = Int.random(in: 1...(Int.random(in: 0..<20, using: &random) == 0 ? 3_000 : 40), using: &random)
            return String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "a" })
        }
    }

    static func randomName(using random: inout CaptureTestRandomGenerator) -> String {
        if Int.random(in: 0..<4, using: &random) == 0 {
            let length = Int.random(in: 1...16, using: &random)
            return "x-"
                + String(
                    (0..<length).map { _ in Array("abcdefghijklmnopqrstuvwxyz-").randomElement(using: &random) ?? "a" })
        }
        return names.randomElement(using: &random) ?? "te"
    }

    @Test(
        "Random header lists over many blocks, with table size changes, decode exactly",
        arguments: [(huffman: false, seed: UInt64(1)), (huffman: true, seed: 2), (huffman: true, seed: 3)])
    func randomBlocks(huffman: Bool, seed: UInt64) throws {
        var random = CaptureTestRandomGenerator(seed: seed)
        var encoder = HPACKEncoder(allocator: ByteBufferAllocator(), useHuffmanEncoding: huffman)
        var reader = HPACKBlockReader()
        var settingsLimit = 4_096
        var totalFields = 0
        var sawEviction = false
        for _ in 0..<400 {
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                // The receiver changes SETTINGS_HEADER_TABLE_SIZE; the encoder must follow below it.
                settingsLimit = [0, 64, 256, 1_024, 4_096, 16_384].randomElement(using: &random) ?? 4_096
                reader.maxTableSize = settingsLimit
                try encoder.setDynamicTableSize(min(settingsLimit, encoder.allowedDynamicTableSize))
            case 1:
                try encoder.setDynamicTableSize(Int.random(in: 0...settingsLimit, using: &random))
            case 2:
                // Two updates in one block: shrink, then grow back.
                try encoder.setDynamicTableSize(Int.random(in: 0...settingsLimit / 4, using: &random))
                try encoder.setDynamicTableSize(settingsLimit)
            default:
                break
            }
            var expected: [HPACKField] = []
            try encoder.beginEncoding(allocator: ByteBufferAllocator())
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                let name = Self.randomName(using: &random)
                let value = Self.randomValue(using: &random)
                let indexing = Indexing.allCases.randomElement(using: &random) ?? .indexable
                switch indexing {
                case .indexable: try encoder.append(header: name, value: value)
                case .nonIndexed: try encoder.appendNonIndexed(header: name, value: value)
                case .neverIndexed: try encoder.appendNeverIndexed(header: name, value: value)
                }
                expected.append(
                    HPACKField(
                        name: Array(name.utf8), value: Array(value.utf8), neverIndexed: indexing == .neverIndexed))
            }
            let buffer = try encoder.endEncoding()
            let block = Array(buffer.readableBytesView)
            let sizeBefore = reader.dynamicTableSize
            let fields = try reader.decode(block[...])
            #expect(fields == expected)
            #expect(reader.dynamicTableSize == encoder.dynamicTableSize)
            #expect(reader.dynamicTableMaxSize == encoder.allowedDynamicTableSize)
            if reader.dynamicTableSize < sizeBefore { sawEviction = true }
            totalFields += fields.count
        }
        #expect(totalFields > 3_000)
        #expect(sawEviction)
    }
}
