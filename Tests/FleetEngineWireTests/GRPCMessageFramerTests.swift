import FleetEngineWire
import Testing

@Suite("GRPCMessageFramer")
struct GRPCMessageFramerTests {
    @Test("writes the flag, the big-endian length and the payload")
    func identityFraming() throws {
        let framer = GRPCMessageFramer()
        #expect(try framer.frame([0x08, 0x96, 0x01]) == [0, 0, 0, 0, 3, 0x08, 0x96, 0x01])
        #expect(try framer.frame([]) == [0, 0, 0, 0, 0])
        let long = try framer.frame(Array(repeating: 0xaa, count: 0x0102_03))
        #expect(Array(long.prefix(5)) == [0, 0, 0x01, 0x02, 0x03])
        #expect(long.count == 5 + 0x0102_03)
    }

    @Test("appends to existing output")
    func frameInto() throws {
        var output: [UInt8] = [0xee]
        try GRPCMessageFramer().frame([1], into: &output)
        try GRPCMessageFramer().frame([2, 3], into: &output)
        #expect(output == [0xee, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 2, 2, 3])
    }

    @Test("compresses with the stream's encoding and sets the flag", arguments: [MessageEncoding.gzip, .deflate])
    func compressed(encoding: MessageEncoding) throws {
        let payload = Array(repeating: UInt8(ascii: "a"), count: 500)
        let framed = try GRPCMessageFramer(encoding: encoding).frame(payload)
        var deframer = GRPCMessageDeframer()
        deframer.append(framed)
        let message = try #require(try deframer.next())
        #expect(message.isCompressed)
        #expect(message.payload.count < 100)
        #expect(try encoding.decompress(message.payload) == payload)
    }

    @Test("leaves a message uncompressed when asked, whatever the encoding")
    func compressionTurnedOff() throws {
        #expect(try GRPCMessageFramer(encoding: .gzip).frame([7], compress: false) == [0, 0, 0, 0, 1, 7])
        #expect(try GRPCMessageFramer(encoding: .identity).frame([7], compress: true) == [0, 0, 0, 0, 1, 7])
        let snappy = GRPCMessageFramer(encoding: MessageEncoding(rawValue: "snappy"))
        #expect(try snappy.frame([7], compress: false) == [0, 0, 0, 0, 1, 7])
        #expect(throws: WireError(.unsupportedEncoding)) { try snappy.frame([7]) }
    }

    @Test("deframes what it frames, with each encoding, however the stream is cut")
    func roundTrip() throws {
        let payloads: [[UInt8]] = [[], Array("trip".utf8), Array(repeating: 0, count: 300)]
        for encoding in [MessageEncoding.identity, .gzip, .deflate] {
            let framer = GRPCMessageFramer(encoding: encoding)
            var stream: [UInt8] = []
            for (index, payload) in payloads.enumerated() {
                try framer.frame(payload, compress: index != 1, into: &stream)
            }
            for cut in DeframerVerifier.cuts(of: stream) {
                var deframer = GRPCMessageDeframer(encoding: encoding)
                var received: [[UInt8]] = []
                for piece in cut.pieces {
                    deframer.append(piece)
                    while let payload = try deframer.nextPayload() {
                        received.append(payload)
                    }
                }
                try deframer.finish()
                #expect(received == payloads, "\(encoding) \(cut)")
            }
        }
    }
}
