import FleetEngineWire
import Testing

@Suite("GRPCMessage decompression")
struct GRPCMessageDecompressionTests {
    @Test("an uncompressed message is returned as is under any encoding")
    func uncompressed() throws {
        let message = GRPCMessage(payload: [1, 2])
        #expect(try message.decompressedPayload(encoding: .gzip) == [1, 2])
        #expect(try message.decompressedPayload(encoding: MessageEncoding(rawValue: "snappy")) == [1, 2])
    }

    @Test("a compressed message under identity is an error")
    func compressedUnderIdentity() throws {
        let message = GRPCMessage(isCompressed: true, payload: MessageEncodingTests.helloGzip)
        let error = try #require(throws: WireError(.compressedWithoutEncoding)) {
            try message.decompressedPayload(encoding: .identity, byteOffset: 12)
        }
        #expect(error.byteOffset == 12)
        #expect(error.message == "message of 25 bytes is flagged compressed, but the grpc-encoding is identity")
    }

    @Test("a payload that fails to decompress is consumed and the next message still reads")
    func failureIsPerMessage() throws {
        var deframer = GRPCMessageDeframer(encoding: .deflate)
        let corrupt: [UInt8] = [1, 0, 0, 0, 2, 0xde, 0xad]
        let good = [1, 0, 0, 0, UInt8(MessageEncodingTests.helloZlib.count)] + MessageEncodingTests.helloZlib
        deframer.append([0, 0, 0, 0, 1, 9] + corrupt + good)
        #expect(try deframer.nextPayload() == [9])
        let error = try #require(throws: WireError(.invalidCompressedData)) { try deframer.nextPayload() }
        #expect(error.byteOffset == 6)
        #expect(try deframer.nextPayload() == MessageEncodingTests.hello)
        #expect(deframer.lastMessageOffset == 13)
    }

    @Test("a decompressed payload is held to the deframer's limit")
    func limitAfterDecompression() throws {
        let compressed = try MessageEncoding.gzip.compress(Array(repeating: 0, count: 100))
        var deframer = GRPCMessageDeframer(maxMessageSize: 99, encoding: .gzip)
        deframer.append(try GRPCMessageFramer(encoding: .gzip).frame(Array(repeating: 0, count: 100)))
        #expect(compressed.count < 99)
        let error = try #require(throws: WireError(.messageTooLarge)) { try deframer.nextPayload() }
        #expect(error.byteOffset == 0)
    }
}
