/// What the decoder reads of a TLS handshake message (RFC 8446 section 4, RFC 5246 section 7.4):
/// the hellos' randoms, the suite and version the server chose, ALPN, and the messages that
/// change keys. Other messages are known by their type alone.
enum TLSHandshakeMessage: Sendable, Equatable {
    /// `offersEarlyData`: its extensions include early_data, so 0-RTT records may follow it.
    case clientHello(random: [UInt8], offersEarlyData: Bool)
    case serverHello(ServerHello)
    /// TLS 1.3: the server's extensions, protected with its handshake keys.
    case encryptedExtensions(alpn: String?)
    case finished
    /// TLS 1.3: the sender's next records use its next traffic secret.
    case keyUpdate
    case other(type: UInt8)

    struct ServerHello: Sendable, Equatable {
        var random: [UInt8]
        var cipherSuite: UInt16
        /// The version from the supported_versions extension (TLS 1.3), else the legacy field.
        var version: UInt16
        /// The protocol the server chose with ALPN (RFC 7301), when it is in the ServerHello (TLS 1.2).
        var alpn: String?

        /// RFC 8446 section 4.1.3: a ServerHello with this random is a HelloRetryRequest.
        static let helloRetryRequestRandom: [UInt8] = [
            0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
            0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
        ]

        var isHelloRetryRequest: Bool { random == Self.helloRetryRequestRandom }
    }

    /// A handshake message that breaks its own structure.
    struct Malformed: Error, Sendable {
        var message: String
    }

    static let clientHelloType: UInt8 = 1
    static let serverHelloType: UInt8 = 2
    static let encryptedExtensionsType: UInt8 = 8
    static let finishedType: UInt8 = 20
    static let keyUpdateType: UInt8 = 24

    private static let supportedVersionsExtension: UInt16 = 43
    private static let earlyDataExtension: UInt16 = 42
    private static let alpnExtension: UInt16 = 16

    /// The message of `type` with this body.
    static func parse(type: UInt8, body: ArraySlice<UInt8>) throws(Malformed) -> TLSHandshakeMessage {
        var reader = TLSByteReader(body)
        do throws(TLSByteReader.OutOfBytes) {
            switch type {
            case clientHelloType:
                _ = try reader.uint16()  // legacy_version
                let random = Array(try reader.bytes(32))
                return .clientHello(random: random, offersEarlyData: offersEarlyData(after: reader))
            case serverHelloType:
                var version = try reader.uint16()
                let random = Array(try reader.bytes(32))
                _ = try reader.vector(lengthBytes: 1)  // legacy_session_id_echo
                let suite = try reader.uint16()
                _ = try reader.uint8()  // legacy_compression_method
                var alpn: String?
                if !reader.isAtEnd {
                    for (extensionType, data) in try extensions(&reader) {
                        var value = TLSByteReader(data)
                        if extensionType == supportedVersionsExtension {
                            version = try value.uint16()
                        } else if extensionType == alpnExtension {
                            alpn = try protocolName(&value)
                        }
                    }
                }
                return .serverHello(ServerHello(random: random, cipherSuite: suite, version: version, alpn: alpn))
            case encryptedExtensionsType:
                var alpn: String?
                for (extensionType, data) in try extensions(&reader) where extensionType == alpnExtension {
                    var value = TLSByteReader(data)
                    alpn = try protocolName(&value)
                }
                return .encryptedExtensions(alpn: alpn)
            case finishedType: return .finished
            case keyUpdateType: return .keyUpdate
            default: return .other(type: type)
            }
        } catch {
            throw Malformed(message: "a handshake message of type \(type) ends inside one of its fields")
        }
    }

    /// Whether the rest of a ClientHello (from its legacy_session_id on) offers early_data (RFC
    /// 8446 section 4.2.10). Only the random is needed to find the connection's secrets, so a
    /// ClientHello whose later fields do not read is taken to offer none, not refused.
    private static func offersEarlyData(after reader: TLSByteReader) -> Bool {
        var reader = reader
        do throws(TLSByteReader.OutOfBytes) {
            _ = try reader.vector(lengthBytes: 1)  // legacy_session_id
            _ = try reader.vector(lengthBytes: 2)  // cipher_suites
            _ = try reader.vector(lengthBytes: 1)  // legacy_compression_methods
            guard !reader.isAtEnd else { return false }
            return try extensions(&reader).contains { $0.0 == earlyDataExtension }
        } catch {
            return false
        }
    }

    /// The extensions block: a 16-bit length, then type, length and data of each extension.
    private static func extensions(
        _ reader: inout TLSByteReader
    ) throws(TLSByteReader.OutOfBytes) -> [(UInt16, ArraySlice<UInt8>)] {
        var block = TLSByteReader(try reader.vector(lengthBytes: 2))
        var extensions: [(UInt16, ArraySlice<UInt8>)] = []
        while !block.isAtEnd {
            let type = try block.uint16()
            extensions.append((type, try block.vector(lengthBytes: 2)))
        }
        return extensions
    }

    /// The one protocol of a server's ALPN extension: a ProtocolNameList holding one name.
    private static func protocolName(_ reader: inout TLSByteReader) throws(TLSByteReader.OutOfBytes) -> String {
        var list = TLSByteReader(try reader.vector(lengthBytes: 2))
        return String(decoding: try list.vector(lengthBytes: 1), as: UTF8.self)
    }
}

/// Reads the fields of a handshake message from the front.
struct TLSByteReader {
    struct OutOfBytes: Error {}

    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func bytes(_ count: Int) throws(OutOfBytes) -> ArraySlice<UInt8> {
        guard bytes.count >= count else { throw OutOfBytes() }
        defer { bytes = bytes.dropFirst(count) }
        return bytes.prefix(count)
    }

    mutating func uint8() throws(OutOfBytes) -> UInt8 { try bytes(1).first ?? 0 }

    mutating func uint16() throws(OutOfBytes) -> UInt16 {
        let two = try bytes(2)
        return UInt16(two[two.startIndex]) << 8 | UInt16(two[two.startIndex + 1])
    }

    /// A vector whose length comes first, in `lengthBytes` bytes.
    mutating func vector(lengthBytes: Int) throws(OutOfBytes) -> ArraySlice<UInt8> {
        let length = try bytes(lengthBytes).reduce(0) { $0 << 8 | Int($1) }
        return try bytes(length)
    }
}

/// Joins the handshake messages of one direction as their records bring them: a message may span
/// records, and a record may hold several.
///
/// Only the messages whose fields the decoder reads (the hellos and EncryptedExtensions) are
/// held until whole; the others (certificates above all) are counted off as they pass, and given
/// by their type once their last byte has, so a direction holds at most one message the decoder
/// reads, never a certificate chain.
struct TLSHandshakeReassembler: Sendable {
    /// The longest message whose fields are read: a ClientHello with post-quantum key shares and
    /// many extensions is a few kilobytes; longer is taken for damage.
    static let maxMessageLength = 1 << 16

    /// The header, or a message that is read, not yet whole.
    private var pending: [UInt8] = []
    /// The type of the message being counted off, and how many of its bytes are still to pass.
    private var skippedType: UInt8 = 0
    private var skippedRemaining = 0

    /// Whether the fields of a message of `type` are read.
    private static func isRead(_ type: UInt8) -> Bool {
        type == TLSHandshakeMessage.clientHelloType || type == TLSHandshakeMessage.serverHelloType
            || type == TLSHandshakeMessage.encryptedExtensionsType
    }

    /// The messages `fragment` completes.
    mutating func append(
        _ fragment: ArraySlice<UInt8>
    ) throws(TLSHandshakeMessage.Malformed) -> [TLSHandshakeMessage] {
        var rest = fragment
        var messages: [TLSHandshakeMessage] = []
        while !rest.isEmpty {
            if skippedRemaining > 0 {
                let passed = min(skippedRemaining, rest.count)
                skippedRemaining -= passed
                rest = rest.dropFirst(passed)
                if skippedRemaining == 0 { messages.append(try TLSHandshakeMessage.parse(type: skippedType, body: [])) }
                continue
            }
            if pending.count < 4 {
                let taken = min(4 - pending.count, rest.count)
                pending += rest.prefix(taken)
                rest = rest.dropFirst(taken)
                guard pending.count == 4 else { break }
            }
            let type = pending[0]
            let length = Int(pending[1]) << 16 | Int(pending[2]) << 8 | Int(pending[3])
            if !Self.isRead(type) {
                pending.removeAll(keepingCapacity: true)
                skippedType = type
                skippedRemaining = length
                if length == 0 { messages.append(try TLSHandshakeMessage.parse(type: type, body: [])) }
                continue
            }
            guard length <= Self.maxMessageLength else {
                throw TLSHandshakeMessage.Malformed(
                    message: "a handshake message of type \(type) announces \(length) bytes, more than the "
                        + "\(Self.maxMessageLength) the decoder reads")
            }
            let taken = min(4 + length - pending.count, rest.count)
            pending += rest.prefix(taken)
            rest = rest.dropFirst(taken)
            guard pending.count == 4 + length else { break }
            messages.append(try TLSHandshakeMessage.parse(type: type, body: pending[4...]))
            pending.removeAll(keepingCapacity: true)
        }
        return messages
    }

    /// Whether the start of a message waits for the records that bring the rest of it.
    var isHoldingPartialMessage: Bool { !pending.isEmpty }
}
