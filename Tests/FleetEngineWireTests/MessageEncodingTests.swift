import FleetEngineWire
import Testing

@Suite("MessageEncoding")
struct MessageEncodingTests {
    /// `hello` compressed by Python's `zlib.compress` (zlib format, RFC 1950).
    static let helloZlib: [UInt8] = [0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x06, 0x2c, 0x02, 0x15]
    /// `hello` compressed by Python's `gzip.compress(mtime=0)` (RFC 1952).
    static let helloGzip: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00,
        0x86, 0xa6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
    ]
    /// `hello` as a bare deflate stream (RFC 1951), with neither wrapper.
    static let helloRawDeflate: [UInt8] = [0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00]
    static let hello = Array("hello".utf8)

    @Test("keeps names it does not implement, exactly as written")
    func openSet() {
        let snappy = MessageEncoding(rawValue: "snappy")
        #expect(snappy.rawValue == "snappy")
        #expect(!snappy.isSupported)
        #expect(MessageEncoding(rawValue: "gzip") == .gzip)
        #expect(MessageEncoding(rawValue: "GZIP") != .gzip)
        #expect(MessageEncoding.supported.map(\.rawValue) == ["identity", "gzip", "deflate"])
        #expect("\(MessageEncoding.deflate)" == "deflate")
    }

    @Test("decompresses data from another implementation")
    func decompressKnownVectors() throws {
        #expect(try MessageEncoding.deflate.decompress(Self.helloZlib) == Self.hello)
        #expect(try MessageEncoding.gzip.decompress(Self.helloGzip) == Self.hello)
        #expect(try MessageEncoding.identity.decompress(Self.hello) == Self.hello)
    }

    @Test("deflate means the zlib format: a bare deflate stream is refused, as gRPC's C core refuses it")
    func rawDeflateRefused() throws {
        let error = try #require(throws: WireError(.invalidCompressedData)) {
            try MessageEncoding.deflate.decompress(Self.helloRawDeflate)
        }
        #expect(error.message == "deflate (zlib format) data is corrupt: incorrect header check")
    }

    @Test("gzip data is not accepted as deflate, nor the other way round")
    func wrappersDoNotMix() {
        #expect(throws: WireError(.invalidCompressedData)) { try MessageEncoding.deflate.decompress(Self.helloGzip) }
        #expect(throws: WireError(.invalidCompressedData)) { try MessageEncoding.gzip.decompress(Self.helloZlib) }
    }

    @Test("round-trips payloads through each encoding", arguments: [MessageEncoding.gzip, .deflate, .identity])
    func roundTrip(encoding: MessageEncoding) throws {
        let payloads: [[UInt8]] = [[], [0], Self.hello, (0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 31 / 7) }]
        for payload in payloads {
            let compressed = try encoding.compress(payload)
            #expect(try encoding.decompress(compressed) == payload)
        }
    }

    @Test("writes the gzip and zlib headers")
    func headers() throws {
        let gzip = try MessageEncoding.gzip.compress(Self.hello)
        #expect(Array(gzip.prefix(3)) == [0x1f, 0x8b, 0x08])
        let zlib = try MessageEncoding.deflate.compress(Self.hello)
        // RFC 1950 section 2.2: CM 8 with a 32 KiB window, and CMF*256 + FLG a multiple of 31.
        #expect(zlib[0] == 0x78)
        #expect((Int(zlib[0]) * 256 + Int(zlib[1])) % 31 == 0)
        #expect(try MessageEncoding.identity.compress(Self.hello) == Self.hello)
    }

    @Test("refuses compressed data that ends early")
    func truncatedData() throws {
        let error = try #require(throws: WireError(.invalidCompressedData)) {
            try MessageEncoding.gzip.decompress(Self.helloGzip.dropLast(3), byteOffset: 40)
        }
        #expect(error.message == "gzip data ends early: 22 bytes hold an incomplete stream")
        #expect(error.byteOffset == 40)
        #expect(throws: WireError(.invalidCompressedData)) { try MessageEncoding.deflate.decompress([0x78]) }
    }

    @Test("reads an empty compressed payload as an empty message, as gRPC's C core does")
    func emptyPayload() throws {
        #expect(try MessageEncoding.gzip.decompress([]) == [])
        #expect(try MessageEncoding.deflate.decompress([]) == [])
        #expect(try GRPCMessage(isCompressed: true, payload: []).decompressedPayload(encoding: .gzip) == [])
    }

    @Test("refuses bytes after the end of the compressed stream")
    func trailingBytes() throws {
        let error = try #require(throws: WireError(.invalidCompressedData)) {
            try MessageEncoding.deflate.decompress(Self.helloZlib + [0, 0])
        }
        #expect(error.message == "2 bytes follow the end of the deflate (zlib format) data")
    }

    @Test("refuses corrupt data with zlib's explanation")
    func corruptData() throws {
        var corrupt = Self.helloGzip
        corrupt[corrupt.count - 6] ^= 0xff  // a CRC-32 byte
        let error = try #require(throws: WireError(.invalidCompressedData)) {
            try MessageEncoding.gzip.decompress(corrupt)
        }
        #expect(error.message == "gzip data is corrupt: incorrect data check")
    }

    @Test("accepts output exactly at the limit and refuses one byte more")
    func decompressedLimit() throws {
        let payload = Array(repeating: UInt8(0x41), count: 1000)
        let compressed = try MessageEncoding.gzip.compress(payload)
        #expect(try MessageEncoding.gzip.decompress(compressed, maxSize: 1000) == payload)
        let error = try #require(throws: WireError(.messageTooLarge)) {
            try MessageEncoding.gzip.decompress(compressed, maxSize: 999)
        }
        #expect(error.message == "gzip payload of \(compressed.count) bytes inflates past the limit of 999 bytes")
        #expect(throws: WireError(.messageTooLarge)) { try MessageEncoding.identity.decompress(payload, maxSize: 999) }
    }

    @Test("stops inflating a compression bomb at the limit", arguments: [MessageEncoding.gzip, .deflate])
    func bomb(encoding: MessageEncoding) throws {
        // 64 MiB of zeros deflate to about 64 KiB; inflating must stop at the 4 MiB default.
        let bomb = try encoding.compress(Array(repeating: 0, count: 64 << 20))
        #expect(bomb.count < 100_000)
        #expect(throws: WireError(.messageTooLarge)) { try encoding.decompress(bomb) }
    }

    @Test("refuses names it does not implement")
    func unsupported() throws {
        let snappy = MessageEncoding(rawValue: "snappy")
        let error = try #require(throws: WireError(.unsupportedEncoding)) { try snappy.decompress([1], byteOffset: 3) }
        #expect(error.message == "grpc-encoding 'snappy' is not one of identity, gzip, deflate")
        #expect(error.byteOffset == 3)
        #expect(throws: WireError(.unsupportedEncoding)) { try snappy.compress([1]) }
    }
}
