import CaptureFuzzing
import FleetEngineStatus
import FleetEngineWire

/// A fuzzer's input read as what arrives on one side of a call: a message size limit, then frames.
///
/// Byte 0, bits 0-1: the limit (64 bytes, 1 KiB, 64 KiB, 4 MiB). Then operations, each an opcode
/// byte whose low 3 bits, modulo 6, say what follows:
///
/// - 0, a header block: opcode bit 3 END_STREAM, bit 4 trailers without a head (response side);
///   a byte whose low 4 bits count the fields; each field a name byte (below 0x80 a name of the
///   vocabulary, else a literal of the low 6 bits' length) and a value byte (bits 6-7: 0 a value
///   of the vocabulary, 1 a literal, 2 unpadded and 3 padded base64 of the literal's bytes, the
///   literal's length in the low 6 bits);
/// - 1, a DATA frame of raw bytes: bit 3 END_STREAM, bits 4-7 the length (15 adds the next byte);
/// - 2, one gRPC message built here: a flags byte (bits 0-1: flag 0; gzip; deflate; flag 1 with
///   a payload that is not compressed; bit 2 END_STREAM on its last frame; bit 3 one byte
///   XOR-ed (a position byte and a mask byte follow); bit 4 the last bytes cut off (a count byte
///   follows); bit 5 the payload is a fill byte repeated 2^(n mod 24) + m times, up to 8 MiB (a
///   compression bomb once compressed; the fill, n and m follow); bit 6 a 2-byte payload length,
///   else 1 byte; bit 7 sent in one DATA frame, else cut into frames of the input's chunk sizes);
/// - 3, RST_STREAM with the next byte's low 4 bits as its error code;
/// - 4, the connection goes away (bit 3: the request was sent);
/// - 5, the caller cancels the call.
public struct WireFuzzScript {
    /// The limits byte 0 picks from.
    public static let messageSizeLimits = [64, 1024, 65_536, GRPCMessageDeframer.defaultMaxMessageSize]

    /// The reader's message size limit.
    public let maxMessageSize: Int
    /// The frames, in order.
    public private(set) var frames: [WireFuzzFrame] = []

    /// Reads `bytes` as a script, taking field names and values from `vocabulary`.
    public init(_ bytes: [UInt8], vocabulary: WireFuzzVocabulary) {
        var input = FuzzInput(bytes)
        maxMessageSize = Self.messageSizeLimits[Int(input.byte() & 3)]
        var chunkSizes = ChunkSizes(seed: bytes.withUnsafeBufferPointer { ChunkSizes.hash($0) })
        while !input.isAtEnd {
            let opcode = input.byte()
            switch (opcode & 7) % 6 {
            case 0:
                let count = Int(input.byte() & 0x0F)
                let fields = (0..<count).map { _ in Self.field(from: &input, vocabulary: vocabulary) }
                frames.append(.headers(fields, endStream: opcode & 0x08 != 0, withoutHead: opcode & 0x10 != 0))
            case 1:
                let length = input.length(lowBitsOf: opcode >> 4, bits: 4)
                frames.append(.data(input.bytes(length), endStream: opcode & 0x08 != 0))
            case 2:
                appendMessage(from: &input, chunkSizes: &chunkSizes)
            case 3:
                frames.append(.reset(HTTP2ErrorCode(rawValue: UInt32(input.byte() & 0x0F))))
            case 4:
                frames.append(.endOfConnection(requestSent: opcode & 0x08 != 0))
            default:
                frames.append(.cancel)
            }
        }
    }

    /// The total size of the DATA frames.
    public var dataByteCount: Int {
        frames.reduce(0) { total, frame in
            guard case .data(let bytes, _) = frame else { return total }
            return total + bytes.count
        }
    }

    private static func field(from input: inout FuzzInput, vocabulary: WireFuzzVocabulary) -> (String, String) {
        let nameByte = input.byte()
        let name =
            nameByte & 0x80 == 0
            ? vocabulary.names[Int(nameByte) % vocabulary.names.count]
            : String(decoding: input.bytes(input.length(lowBitsOf: nameByte, bits: 6)), as: UTF8.self)
        let valueByte = input.byte()
        let kind = valueByte >> 6
        guard kind != 0 else { return (name, vocabulary.values[Int(valueByte & 0x3F) % vocabulary.values.count]) }
        let literal = input.bytes(input.length(lowBitsOf: valueByte, bits: 6))
        guard kind != 1 else { return (name, String(decoding: literal, as: UTF8.self)) }
        var base64 = GRPCMetadata()
        base64.append(name: "x-bin", binaryValue: literal)
        var text = base64[0].value
        if kind == 3 {
            text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        }
        return (name, text)
    }

    /// Compressed fills, kept across runs: compressing megabytes for every input would slow the
    /// fuzzer down to a crawl. libFuzzer runs inputs one at a time, on one thread.
    nonisolated(unsafe) private static var compressedFills: [[Int]: [UInt8]] = [:]

    private mutating func appendMessage(from input: inout FuzzInput, chunkSizes: inout ChunkSizes) {
        let flags = input.byte()
        let format = Int(flags & 3)
        let payload: [UInt8]
        let encoding: MessageEncoding? = format == 1 ? .gzip : format == 2 ? .deflate : nil
        if flags & 0x20 != 0 {
            let fill = input.byte()
            let count = 1 << (Int(input.byte()) % 24) + Int(input.byte())
            let key = [Int(fill), count, format]
            if let cached = Self.compressedFills[key] {
                payload = cached
            } else {
                let plain = [UInt8](repeating: fill, count: count)
                payload = (try? encoding?.compress(plain)) ?? plain
                if Self.compressedFills.count < 256 { Self.compressedFills[key] = payload }
            }
        } else {
            let length = flags & 0x40 != 0 ? Int(input.byte()) << 8 | Int(input.byte()) : Int(input.byte())
            let plain = input.bytes(length)
            payload = (try? encoding?.compress(plain)) ?? plain
        }
        var framed: [UInt8] = [format == 0 ? 0 : 1]
        framed += withUnsafeBytes(of: UInt32(truncatingIfNeeded: payload.count).bigEndian, Array.init)
        framed += payload
        if flags & 0x08 != 0 {
            let position = Int(input.byte()) % framed.count
            framed[position] ^= input.byte()
        }
        if flags & 0x10 != 0 {
            framed.removeLast(min(framed.count, Int(input.byte())))
        }
        let endStream = flags & 0x04 != 0
        guard flags & 0x80 == 0 else {
            frames.append(.data(framed, endStream: endStream))
            return
        }
        var start = 0
        repeat {
            let end = min(framed.count, start + chunkSizes.next())
            frames.append(.data(Array(framed[start..<end]), endStream: endStream && end == framed.count))
            start = end
        } while start < framed.count
    }
}
