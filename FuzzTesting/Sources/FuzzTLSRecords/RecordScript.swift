import CaptureFuzzing

/// Plays the records of a script on the fixed connection, as its client and server would send
/// them, and writes the capture.
///
/// Each operation is two bytes, then its content:
///
/// - byte 0: bit 0, sent by the server (else the client); bit 1, protected (sealed with the
///   sender's current keys and sequence number); bits 2-3, the content type (application data,
///   handshake, alert, ChangeCipherSpec), TLS 1.3's inner one when protected; bit 4, the content
///   is a ``PlaintextTemplate`` named by the next byte (else a length byte follows, 255 for a
///   16-bit length in the next two, and that many bytes); bits 5-7, damage done to the record on
///   the wire: none, a bit of its last byte flipped, cut short with its header fixed, cut short
///   without, another content type, another version, another length, a bit of its first
///   fragment byte flipped;
/// - byte 1: bits 0-3, an amount: TLS 1.3's zero padding (``paddings``) and which bit, how many
///   bytes or which value the damage takes; bits 4-7, how what the sender has waiting is cut into
///   TCP segments (``segmentSizes(_:_:)``): kept for the next record, whole, byte by byte, in
///   halves or in pieces of a fixed size (64 at most, then the rest whole), or with its first segment lost, sent twice, or last.
///
/// The sender's keys change as a TLS endpoint's do: TLS 1.3 after it sends its Finished (to its
/// first traffic secret) and a KeyUpdate (to the next), TLS 1.2 from its ChangeCipherSpec on.
struct RecordScript {
    /// What one side has sent and the keys it seals with.
    private struct Sender {
        var sealer: RecordSealer
        /// TLS 1.3: the keys of its first traffic secret, taken when it sends its Finished.
        var trafficSealer: RecordSealer?
        var isInHandshake = true
        /// TLS 1.3: the protected handshake bytes that do not yet make a whole message.
        var handshakeBytes: [UInt8] = []
        /// TLS 1.2: whether it sent its ChangeCipherSpec.
        var sentChangeCipherSpec = false
        /// The records waiting to be cut into segments.
        var outbox: [UInt8] = []
    }

    let suite: FuzzedSuite
    private var writer = TLSCaptureWriter()
    private var senders: [Sender]
    /// Whether every record so far is one the decoder must open: undamaged, none lost, protected
    /// when the sender's keys say so, and no hello after the handshake.
    private(set) var isWellFormed = true

    /// TLS 1.3's zero padding (RFC 8446 section 5.4), by the amount in an operation's byte 1.
    static let paddings = [0, 0, 0, 0, 1, 2, 3, 7, 8, 15, 16, 100, 255, 256, 4_096, 18_400]

    /// The connection up to the ServerHello (a HelloRetryRequest and a second ClientHello first
    /// when `helloRetryRequest`), and TLS 1.3's compatibility ChangeCipherSpec after it.
    init(suite: FuzzedSuite, helloRetryRequest: Bool) {
        self.suite = suite
        if suite.isTLS13 {
            senders = [
                Sender(
                    sealer: RecordSealer(tls13: suite, secret: HandshakeFixture.clientHandshakeSecret(suite)),
                    trafficSealer: RecordSealer(tls13: suite, secret: HandshakeFixture.clientTrafficSecret(suite))),
                Sender(
                    sealer: RecordSealer(tls13: suite, secret: HandshakeFixture.serverHandshakeSecret(suite)),
                    trafficSealer: RecordSealer(tls13: suite, secret: HandshakeFixture.serverTrafficSecret(suite))),
            ]
        } else {
            let keys = Self.tls12Keys(suite)
            senders = [
                Sender(sealer: RecordSealer(tls12: suite, key: keys.client.key, iv: keys.client.iv)),
                Sender(sealer: RecordSealer(tls12: suite, key: keys.server.key, iv: keys.server.iv)),
            ]
        }
        writer.handshake()
        let inOrder: (Int) -> Int = { _ in 16_000 }
        writer.send(HandshakeFixture.clientHelloRecord, fromServer: false, sizes: inOrder, order: .inOrder)
        if helloRetryRequest {
            let retry = HandshakeFixture.serverHello(suite, random: HandshakeFixture.helloRetryRequestRandom)
            writer.send(HandshakeFixture.record(type: 22, retry), fromServer: true, sizes: inOrder, order: .inOrder)
            writer.send(HandshakeFixture.clientHelloRecord, fromServer: false, sizes: inOrder, order: .inOrder)
        }
        var serverFlight = HandshakeFixture.record(type: 22, HandshakeFixture.serverHello(suite))
        if suite.isTLS13 { serverFlight += HandshakeFixture.record(type: 20, [1]) }
        writer.send(serverFlight, fromServer: true, sizes: inOrder, order: .inOrder)
    }

    private static func tls12Keys(
        _ suite: FuzzedSuite
    ) -> (client: (key: [UInt8], iv: [UInt8]), server: (key: [UInt8], iv: [UInt8])) {
        KeyScheduleMirror.tls12Keys(
            suite, masterSecret: HandshakeFixture.masterSecret, clientRandom: HandshakeFixture.clientRandom,
            serverRandom: HandshakeFixture.serverRandom)
    }

    /// Plays every operation of `script` (an unfinished last one is left out).
    mutating func play(_ script: ArraySlice<UInt8>) {
        var position = script.startIndex
        while position + 3 <= script.endIndex {
            let control = script[position]
            let shape = script[position + 1]
            position += 2
            let content: [UInt8]
            var template: UInt8?
            if control & 0x10 != 0 {
                template = script[position]
                content = PlaintextTemplate.plaintext(script[position], suite: suite)
                position += 1
            } else {
                var length = Int(script[position])
                position += 1
                if length == 255, position + 2 <= script.endIndex {
                    length = Int(script[position]) << 8 | Int(script[position + 1])
                    position += 2
                }
                content = Array(script[position..<min(script.endIndex, position + length)])
                position += content.count
            }
            send(content, template: template, control: control, shape: shape)
        }
    }

    private mutating func send(_ content: [UInt8], template: UInt8?, control: UInt8, shape: UInt8) {
        let side = Int(control & 1)
        let isProtected = control & 2 != 0
        let contentType: UInt8 = [23, 22, 21, 20][Int(control >> 2) & 3]
        let damage = control >> 5
        let amount = Int(shape & 0x0F)
        var sender = senders[side]
        defer { senders[side] = sender }

        if suite.isTLS13 {
            // Records in the clear after the ServerHello are passed over, but application data.
            if !isProtected, contentType == 23 { isWellFormed = false }
        } else {
            // RFC 5246 section 7.1: protected exactly from the sender's ChangeCipherSpec on, and
            // in the clear only the handshake messages that are neither hellos nor partial.
            if isProtected != sender.sentChangeCipherSpec { isWellFormed = false }
            if !isProtected, contentType == 23 { isWellFormed = false }
            if !isProtected, contentType == 22, !(template.map(PlaintextTemplate.isCleartextTLS12Flight) ?? false) {
                isWellFormed = false
            }
        }

        var record: [UInt8]
        if isProtected {
            // Room for the padding, the tag and the nonce within a 16-bit record length.
            let padding = suite.isTLS13 ? Self.paddings[amount] : 0
            record = sender.sealer.seal(Array(content.prefix(40_000)), contentType: contentType, padding: padding)
            if suite.isTLS13, contentType == 22 { sentProtectedHandshake(content, by: &sender) }
        } else {
            record = HandshakeFixture.record(type: contentType, Array(content.prefix(0xFFFF)))
        }
        if !suite.isTLS13, contentType == 20, !sender.sentChangeCipherSpec {
            sender.sentChangeCipherSpec = true
            let keys = Self.tls12Keys(suite)
            let key = side == 0 ? keys.client : keys.server
            sender.sealer = RecordSealer(tls12: suite, key: key.key, iv: key.iv)
        }
        if damage != 0 {
            isWellFormed = false
            Self.damage(&record, kind: damage, amount: amount)
        }
        sender.outbox += record

        let cut = shape >> 4
        guard cut != 0 else { return }
        if cut == 12 { isWellFormed = false }
        let order: TLSCaptureWriter.Order =
            switch cut {
            case 12: .firstLost
            case 13: .firstRepeated
            case 14: .reversed
            default: .inOrder
            }
        var chunkSizes = ChunkSizes(seed: UInt64(control) << 8 | UInt64(shape) | UInt64(sender.outbox.count) << 16)
        let count = sender.outbox.count
        writer.send(
            sender.outbox, fromServer: side == 1,
            sizes: { index in Self.segmentSize(cut: cut, index: index, total: count, chunkSizes: &chunkSizes) },
            order: order)
        sender.outbox = []
    }

    /// The size of segment `index` of `total` bytes, for cut mode `cut` (1 to 15).
    private static func segmentSize(cut: UInt8, index: Int, total: Int, chunkSizes: inout ChunkSizes) -> Int {
        switch cut {
        case 2: 1
        case 3: index == 0 ? max(1, total / 2) : 16_000
        case 4: 2
        case 5: 3
        case 6: 5
        case 7: 7
        case 8: 16
        case 9: 100
        case 10: 1_460
        case 11: chunkSizes.next()
        case 12: 1_460
        case 13: 100
        case 14: 50
        case 15: 4_096
        default: 16_000
        }
    }

    /// TLS 1.3: follows the handshake messages the sender protects, as its peer reads them
    /// (RFC 8446 section 5.1: a message may span records), and changes keys after its Finished
    /// and its KeyUpdates (sections 4.4.4 and 4.6.3).
    private func sentProtectedHandshake(_ content: [UInt8], by sender: inout Sender) {
        sender.handshakeBytes += content
        var start = 0
        while sender.handshakeBytes.count - start >= 4 {
            let bytes = sender.handshakeBytes
            let length = Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
            guard bytes.count - start >= 4 + length else { break }
            switch bytes[start] {
            case 20 where sender.isInHandshake:
                sender.isInHandshake = false
                if let traffic = sender.trafficSealer { sender.sealer = traffic }
            case 24 where !sender.isInHandshake:
                sender.sealer.updateKeys()
            default:
                break
            }
            start += 4 + length
        }
        sender.handshakeBytes.removeFirst(start)
    }

    /// Damages a record on the wire (`kind` 1 to 7, see the type's documentation).
    private static func damage(_ record: inout [UInt8], kind: UInt8, amount: Int) {
        let fragmentLength = record.count - 5
        func setLength(_ length: Int) {
            record[3] = UInt8(truncatingIfNeeded: length >> 8)
            record[4] = UInt8(truncatingIfNeeded: length)
        }
        switch kind {
        case 1:
            if fragmentLength > 0 { record[record.count - 1] ^= 1 << (amount & 7) }
        case 2:
            record.removeLast(min(fragmentLength, amount + 1))
            setLength(record.count - 5)
        case 3:
            record.removeLast(min(fragmentLength, amount + 1))
        case 4:
            record[0] = [0, 19, 24, 25, 0xFF, 20, 21, 22, 23, 0x80, 0x17, 0x16, 1, 2, 0x14, 0x15][amount]
        case 5:
            let versions: [(UInt8, UInt8)] = [(3, 1), (3, 4), (3, 5), (2, 0), (0, 0), (3, 0xFF), (0x16, 3), (3, 0)]
            (record[1], record[2]) = versions[amount & 7]
        case 6:
            let lengths = [0, 1, 15, 16, 0xFFFF, 0x4800, 0x4801, 0x4100, fragmentLength + 1, fragmentLength - 1]
            setLength(max(0, lengths[amount % lengths.count]))
        default:
            if fragmentLength > 0 { record[5] ^= 1 << (amount & 7) }
        }
    }

    /// The capture: what the senders still hold, in one segment each, then both FINs; a pcap, or
    /// a pcapng file with `keyLog` in a Decryption Secrets Block.
    mutating func capture(keyLogInSecretsBlock keyLog: [UInt8]?) -> [UInt8] {
        for side in 0..<2 {
            writer.send(senders[side].outbox, fromServer: side == 1, sizes: { _ in 16_000 }, order: .inOrder)
            senders[side].outbox = []
        }
        writer.finish()
        return keyLog.map { writer.pcapng(keyLog: $0) } ?? writer.pcap()
    }
}
