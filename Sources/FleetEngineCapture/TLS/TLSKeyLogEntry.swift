/// One line of an NSS key log (RFC 9850): a label, the client random of the connection it belongs
/// to, and a secret.
///
/// The secret decrypts the connection's traffic, so neither ``description`` nor a mirror of the
/// entry shows it: printing an entry, logging it or dumping it names its label and connection only.
public struct TLSKeyLogEntry: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// What a key log line's secret is: an open set, so a label this package does not use (an
    /// exporter secret, early traffic) is kept as it was read.
    public struct Label: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The label as it appears in the key log.
        public var rawValue: String

        /// A label as it appears in the key log.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// TLS 1.2 (and earlier): the 48-byte master secret.
        public static let clientRandom = Label(rawValue: "CLIENT_RANDOM")
        /// TLS 1.3: the secret of the client's handshake records (RFC 8446 section 7.1).
        public static let clientHandshakeTrafficSecret = Label(rawValue: "CLIENT_HANDSHAKE_TRAFFIC_SECRET")
        /// TLS 1.3: the secret of the server's handshake records.
        public static let serverHandshakeTrafficSecret = Label(rawValue: "SERVER_HANDSHAKE_TRAFFIC_SECRET")
        /// TLS 1.3: the secret of the client's first application data records.
        public static let clientTrafficSecret0 = Label(rawValue: "CLIENT_TRAFFIC_SECRET_0")
        /// TLS 1.3: the secret of the server's first application data records.
        public static let serverTrafficSecret0 = Label(rawValue: "SERVER_TRAFFIC_SECRET_0")

        /// The labels whose secrets decrypt a connection's records.
        static let used: Set<Label> = [
            .clientRandom, .clientHandshakeTrafficSecret, .serverHandshakeTrafficSecret, .clientTrafficSecret0,
            .serverTrafficSecret0,
        ]

        /// The label as the key log spells it.
        public var description: String { rawValue }
    }

    /// What the secret is.
    public var label: Label
    /// The 32 random bytes of the connection's ClientHello, which name the connection.
    public var clientRandom: [UInt8]
    /// The secret itself.
    public var secret: [UInt8]

    /// An entry from its parts.
    public init(label: Label, clientRandom: [UInt8], secret: [UInt8]) {
        self.label = label
        self.clientRandom = clientRandom
        self.secret = secret
    }

    /// The label and the client random in hex; never the secret.
    public var description: String {
        "\(label) \(TLSHex.string(clientRandom)) (\(secret.count)-byte secret not shown)"
    }

    /// A mirror without the secret, so `dump` and debuggers do not show it either.
    public var customMirror: Mirror {
        Mirror(self, children: ["label": label, "clientRandom": TLSHex.string(clientRandom)])
    }
}

/// Lowercase hex, for client randoms in messages.
enum TLSHex {
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The value of one hex digit, or nil.
    static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
