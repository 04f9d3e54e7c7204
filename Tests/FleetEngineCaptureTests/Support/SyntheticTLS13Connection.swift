import FleetEngineTestSupport

@testable import FleetEngineCapture

/// The TLS 1.3 records of a made-up connection whose secrets the test chooses: a ClientHello and
/// a ServerHello with the fields the decoder reads (in a valid structure), the server's
/// EncryptedExtensions and Finished and the client's Finished under the handshake secrets, then
/// application data under the first traffic secrets, sealed by ``TLSRecordSealer``.
///
/// ```swift
/// var tls = SyntheticTLS13Connection(seed: 1)
/// var tcp = SyntheticTCPConnection.ipv4()
/// var packets = tcp.handshake()
/// packets += tcp.send(tls.clientHelloRecord(), from: .client)
/// packets += tcp.send(tls.serverHandshakeRecords(), from: .server)
/// packets += tcp.send(tls.clientFinishedRecords() + tls.clientApplicationRecords(http2Bytes), from: .client)
/// let keyLog = try TLSKeyLog(parsing: Array(tls.keyLog().utf8), source: "test")
/// ```
struct SyntheticTLS13Connection {
    let suite: TLSCipherSuite
    let clientRandom: [UInt8]
    let serverRandom: [UInt8]
    let clientHandshakeSecret: [UInt8]
    let serverHandshakeSecret: [UInt8]
    let clientTrafficSecret: [UInt8]
    let serverTrafficSecret: [UInt8]
    /// The protocol the server's EncryptedExtensions choose with ALPN; nil: no ALPN.
    var alpn: String? = "h2"
    /// The most application data a record carries.
    var maxRecordContent = 1_000

    private var clientApplication: TLSRecordSealer
    private var serverApplication: TLSRecordSealer

    /// A connection whose randoms and secrets are made from `seed`.
    init(seed: UInt8, cipherSuite: UInt16 = 0x1301) {
        guard let suite = TLSCipherSuite.named(cipherSuite), suite.isTLS13 else {
            preconditionFailure("not a TLS 1.3 suite the decoder knows: \(cipherSuite)")
        }
        self.suite = suite
        func bytes(_ label: UInt8, _ count: Int) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ Int(label) &* 11 &+ Int(seed) &* 101) }
        }
        clientRandom = bytes(1, 32)
        serverRandom = bytes(2, 32)
        clientHandshakeSecret = bytes(3, suite.hash.length)
        serverHandshakeSecret = bytes(4, suite.hash.length)
        clientTrafficSecret = bytes(5, suite.hash.length)
        serverTrafficSecret = bytes(6, suite.hash.length)
        clientApplication = TLSRecordSealer(tls13: suite, trafficSecret: clientTrafficSecret)
        serverApplication = TLSRecordSealer(tls13: suite, trafficSecret: serverTrafficSecret)
    }

    /// The NSS key log of the connection: the four secrets, or the two traffic secrets alone.
    func keyLog(handshakeSecrets: Bool = true) -> String {
        let random = hexString(clientRandom)
        var lines = [
            "CLIENT_TRAFFIC_SECRET_0 \(random) \(hexString(clientTrafficSecret))",
            "SERVER_TRAFFIC_SECRET_0 \(random) \(hexString(serverTrafficSecret))",
        ]
        if handshakeSecrets {
            lines =
                [
                    "CLIENT_HANDSHAKE_TRAFFIC_SECRET \(random) \(hexString(clientHandshakeSecret))",
                    "SERVER_HANDSHAKE_TRAFFIC_SECRET \(random) \(hexString(serverHandshakeSecret))",
                ] + lines
        }
        return lines.map { $0 + "\n" }.joined()
    }

    // MARK: Handshake

    /// The ClientHello record (RFC 8446 section 4.1.2): legacy version, random, session id, the
    /// suite, null compression, supported_versions and ALPN.
    func clientHelloRecord() -> [UInt8] {
        var body: [UInt8] = [0x03, 0x03] + clientRandom + Self.vector(1, [UInt8](repeating: 0xAB, count: 32))
        body += Self.vector(2, Self.uint16(suite.id)) + [0x01, 0x00]
        let extensions =
            Self.extension(43, Self.vector(1, [0x03, 0x04]))
            + Self.extension(16, Self.vector(2, Self.vector(1, Array("h2".utf8))))
        body += Self.vector(2, extensions)
        return Self.record(22, Self.handshake(1, body), version: 0x0301)
    }

    /// A HelloRetryRequest (RFC 8446 section 4.1.4): a ServerHello with the special random, asking
    /// for another key share, and a ChangeCipherSpec.
    func helloRetryRequestRecords() -> [UInt8] {
        var body: [UInt8] = [0x03, 0x03] + TLSHandshakeMessage.ServerHello.helloRetryRequestRandom
        body += Self.vector(1, [UInt8](repeating: 0xAB, count: 32)) + Self.uint16(suite.id) + [0x00]
        body += Self.vector(2, Self.extension(43, [0x03, 0x04]) + Self.extension(51, [0x00, 0x17]))
        return Self.record(22, Self.handshake(2, body)) + Self.record(20, [0x01])
    }

    /// The ServerHello record, a ChangeCipherSpec (middlebox compatibility), and the server's
    /// EncryptedExtensions and Finished under its handshake secret.
    func serverHandshakeRecords() -> [UInt8] {
        var body: [UInt8] = [0x03, 0x03] + serverRandom + Self.vector(1, [UInt8](repeating: 0xAB, count: 32))
        body += Self.uint16(suite.id) + [0x00]
        body += Self.vector(2, Self.extension(43, [0x03, 0x04]))
        var sealer = TLSRecordSealer(tls13: suite, trafficSecret: serverHandshakeSecret)
        var extensions: [UInt8] = []
        if let alpn { extensions = Self.extension(16, Self.vector(2, Self.vector(1, Array(alpn.utf8)))) }
        let flight =
            Self.handshake(8, Self.vector(2, extensions))
            + Self.handshake(20, [UInt8](repeating: 0x5F, count: suite.hash.length))
        return Self.record(22, Self.handshake(2, body)) + Self.record(20, [0x01])
            + sealer.seal(flight, contentType: 22, padding: 5)
    }

    /// A ChangeCipherSpec and the client's Finished under its handshake secret.
    func clientFinishedRecords() -> [UInt8] {
        var sealer = TLSRecordSealer(tls13: suite, trafficSecret: clientHandshakeSecret)
        return Self.record(20, [0x01])
            + sealer.seal(Self.handshake(20, [UInt8](repeating: 0xC1, count: suite.hash.length)), contentType: 22)
    }

    // MARK: Application data

    /// `bytes` as the client's application data records, continuing its sequence numbers.
    mutating func clientApplicationRecords(_ bytes: [UInt8]) -> [UInt8] {
        Self.applicationRecords(bytes, maxRecordContent: maxRecordContent, sealer: &clientApplication)
    }

    /// `bytes` as the server's application data records, after a NewSessionTicket when
    /// `withTicket`, continuing its sequence numbers.
    mutating func serverApplicationRecords(_ bytes: [UInt8], withTicket: Bool = false) -> [UInt8] {
        var records: [UInt8] = []
        if withTicket {
            let ticket = Self.handshake(
                4, [0, 0, 0x1C, 0x20, 1, 2, 3, 4] + Self.vector(1, [0]) + Self.vector(2, [9, 9]) + [0, 0])
            records += serverApplication.seal(ticket, contentType: 22)
        }
        return records + Self.applicationRecords(bytes, maxRecordContent: maxRecordContent, sealer: &serverApplication)
    }

    /// A close_notify alert from the client or the server.
    mutating func closeNotify(fromClient: Bool) -> [UInt8] {
        fromClient
            ? clientApplication.seal([1, 0], contentType: 21) : serverApplication.seal([1, 0], contentType: 21)
    }

    private static func applicationRecords(
        _ bytes: [UInt8], maxRecordContent: Int, sealer: inout TLSRecordSealer
    ) -> [UInt8] {
        var records: [UInt8] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let piece = rest.prefix(maxRecordContent)
            rest = rest.dropFirst(piece.count)
            records += sealer.seal(piece, contentType: 23, padding: piece.count % 3)
        }
        return records
    }

    // MARK: Encoding

    static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func vector(_ lengthBytes: Int, _ body: [UInt8]) -> [UInt8] {
        (0..<lengthBytes).reversed().map { UInt8(truncatingIfNeeded: body.count >> (8 * $0)) } + body
    }

    static func `extension`(_ type: UInt16, _ body: [UInt8]) -> [UInt8] { uint16(type) + vector(2, body) }

    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] { [type] + vector(3, body) }

    static func record(_ contentType: UInt8, _ fragment: [UInt8], version: UInt16 = 0x0303) -> [UInt8] {
        [contentType] + uint16(version) + vector(2, fragment)
    }
}
