/// Plaintexts a script can name by number instead of spelling them out: the HTTP/2 of a GetTrip
/// call (hand-built, with literal HPACK fields, as make-corpora.py builds it) and the handshake
/// messages the decoder reads inside and outside protected records. Numbers wrap around.
enum PlaintextTemplate {
    /// The templates for each suite (Finished and ServerHello differ with it).
    private static let tables: [[[UInt8]]] = FuzzedSuite.allCases.map(templates)

    static func plaintext(_ number: UInt8, suite: FuzzedSuite) -> [UInt8] {
        let table = tables[suite.rawValue]
        return table[Int(number) % table.count]
    }

    private static func templates(_ suite: FuzzedSuite) -> [[UInt8]] {
        let finished = message(20, filler(suite.secretLength, 30))
        // TLS 1.3 Certificate (RFC 8446 section 4.4.2): context, one entry, no extensions.
        let certificate = message(11, [0] + vector(vector(filler(120, 31), 3) + [0, 0], 3))
        let certificateVerify = message(15, [0x08, 0x04] + vector(filler(64, 32), 2))
        let serverFlight = encryptedExtensions(alpn: "h2") + certificate + certificateVerify + finished
        return [
            /* 0 */ http2ClientStart,
            /* 1 */ http2Request,
            /* 2 */ http2ServerStart,
            /* 3 */ http2Response,
            /* 4 */ encryptedExtensions(alpn: "h2"),
            /* 5 */ encryptedExtensions(alpn: "http/1.1"),
            /* 6 */ encryptedExtensions(alpn: nil),
            /* 7 */ finished,
            /* 8 */ message(24, [0]),  // KeyUpdate, update_not_requested
            /* 9 */ message(24, [1]),  // KeyUpdate, update_requested
            /* 10 */ certificate + certificateVerify,
            // NewSessionTicket: lifetime, age_add, nonce, ticket, no extensions.
            /* 11 */ message(
                4, [0, 0, 0x1C, 0x20, 1, 2, 3, 4] + vector(filler(8, 33), 1) + vector(filler(32, 33), 2) + [0, 0]),
            /* 12 */ serverFlight,
            /* 13 */ [1, 0],  // close_notify
            /* 14 */ Array(HandshakeFixture.clientHelloRecord.dropFirst(5)),
            /* 15 */ HandshakeFixture.serverHello(suite),
            /* 16 */ HandshakeFixture.serverHello(suite, random: HandshakeFixture.helloRetryRequestRandom),
            // DATA of 16,000 bytes: a gRPC message of 15,995.
            /* 17 */ http2Frame(type: 0, flags: 0, stream: 1, grpcMessage([UInt8](repeating: 0x61, count: 15_995))),
            /* 18 */ http2Frame(type: 6, flags: 0, stream: 0, [1, 2, 3, 4, 5, 6, 7, 8])
                + http2Frame(type: 7, flags: 0, stream: 0, [0, 0, 0, 1, 0, 0, 0, 0]),
            /* 19 */ Array(finished.prefix(3)),  // a handshake message cut across records
            /* 20 */ Array(finished.dropFirst(3)),
            /* 21 */ tls12ServerFlight,
            /* 22 */ message(16, vector(filler(32, 34), 1)),  // TLS 1.2 ClientKeyExchange (ECDHE)
            /* 23 */ message(20, filler(12, 35)),  // TLS 1.2 Finished
        ]
    }

    /// Template numbers a TLS 1.2 script may send in the clear and stay well formed: complete
    /// messages that are not hellos (a second ServerHello would start the keys again).
    static func isCleartextTLS12Flight(_ number: UInt8) -> Bool {
        [10, 21, 22].contains(Int(number) % tables[0].count)
    }

    // MARK: Handshake

    /// TLS 1.3 EncryptedExtensions (RFC 8446 section 4.3.1): ALPN when given, else an empty server_name.
    static func encryptedExtensions(alpn: String?) -> [UInt8] {
        let extensions =
            alpn.map { HandshakeFixture.tlsExtension(0x0010, HandshakeFixture.alpnList([$0])) }
            ?? HandshakeFixture.tlsExtension(0x0000, [])
        return message(8, vector(extensions, 2))
    }

    /// TLS 1.2 server flight in the clear: Certificate, ServerKeyExchange (ECDHE x25519), ServerHelloDone.
    static let tls12ServerFlight: [UInt8] =
        message(11, vector(vector(filler(120, 36), 3), 3))
        + message(12, [3, 0x00, 0x1D] + vector(filler(32, 37), 1) + [0x08, 0x04] + vector(filler(64, 38), 2))
        + message(14, [])

    private static func message(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        HandshakeFixture.handshakeMessage(type: type, body)
    }

    private static func vector(_ bytes: [UInt8], _ lengthBytes: Int) -> [UInt8] {
        HandshakeFixture.vector(bytes, lengthBytes: lengthBytes)
    }

    private static func filler(_ count: Int, _ tag: UInt8) -> [UInt8] { HandshakeFixture.bytes(count: count, tag: tag) }

    // MARK: HTTP/2

    static func http2Frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF), type, flags]
            + [UInt8(stream >> 24), UInt8((stream >> 16) & 0xFF), UInt8((stream >> 8) & 0xFF), UInt8(stream & 0xFF)]
            + payload
    }

    /// An HPACK literal header field without indexing, new name (RFC 7541 section 6.2.2).
    static func literal(_ name: String, _ value: String) -> [UInt8] {
        [0, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
    }

    static func grpcMessage(_ payload: [UInt8]) -> [UInt8] {
        [0] + vector(payload, 4)
    }

    static let http2ClientStart: [UInt8] =
        Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        + http2Frame(type: 4, flags: 0, stream: 0, [0, 4, 0, 0, 0xFF, 0xFF])

    static let http2Request: [UInt8] =
        http2Frame(
            type: 1, flags: 4, stream: 1,
            [0x83, 0x86] + literal(":path", "/maps.fleetengine.v1.TripService/GetTrip")
                + literal(":authority", "fleetengine.googleapis.com") + literal("content-type", "application/grpc")
                + literal("te", "trailers"))
        + http2Frame(type: 0, flags: 1, stream: 1, grpcMessage(Array("\u{1A}\u{13}providers/p/trips/t".utf8)))
        + http2Frame(type: 4, flags: 1, stream: 0, [])

    static let http2ServerStart: [UInt8] =
        http2Frame(type: 4, flags: 0, stream: 0, []) + http2Frame(type: 4, flags: 1, stream: 0, [])

    static let http2Response: [UInt8] =
        http2Frame(type: 1, flags: 4, stream: 1, [0x88] + literal("content-type", "application/grpc"))
        + http2Frame(type: 0, flags: 0, stream: 1, grpcMessage(Array("\n\u{13}providers/p/trips/t".utf8)))
        + http2Frame(type: 1, flags: 5, stream: 1, literal("grpc-status", "0") + literal("grpc-message", ""))
}
