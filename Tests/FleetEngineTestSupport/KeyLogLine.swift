/// One line of an NSS key log (the format of `SSLKEYLOGFILE`, RFC 9850), read strictly: a label,
/// the client random and the secret, separated by single spaces, both in lowercase hex as
/// BoringSSL writes them.
public struct KeyLogLine: Hashable, Sendable, CustomStringConvertible {
    /// What the secret is, e.g. `CLIENT_TRAFFIC_SECRET_0`.
    public var label: String
    /// The connection's client random: 32 bytes, 64 hex digits.
    public var clientRandom: String
    /// The secret, in hex.
    public var secret: String

    /// The labels of the secrets a TLS 1.3 handshake (without early data) gives, sorted.
    public static let tls13Labels = [
        "CLIENT_HANDSHAKE_TRAFFIC_SECRET", "CLIENT_TRAFFIC_SECRET_0", "EXPORTER_SECRET",
        "SERVER_HANDSHAKE_TRAFFIC_SECRET", "SERVER_TRAFFIC_SECRET_0",
    ]

    /// The line `text` holds, or nil when it is not three fields of which the last two are
    /// lowercase hex with a 64-digit client random and a secret of 32 or 48 bytes (the length of a
    /// SHA-256 or SHA-384 hash: TLS 1.3's secrets, and TLS 1.2's 48-byte master secret).
    public init?(_ text: some StringProtocol) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 3, !fields[0].isEmpty,
            fields[0].allSatisfy({ $0 == "_" || $0.isUppercase || $0.isNumber })
        else { return nil }
        guard fields[1].count == 64, Self.isHex(fields[1]), [64, 96].contains(fields[2].count), Self.isHex(fields[2])
        else { return nil }
        label = String(fields[0])
        clientRandom = String(fields[1])
        secret = String(fields[2])
    }

    /// The lines of a key log's text, each ending in a line feed; nil when any is not a
    /// ``KeyLogLine`` or the text does not end in a line feed.
    public static func lines(of text: String) -> [KeyLogLine]? {
        guard text.hasSuffix("\n") else { return text.isEmpty ? [] : nil }
        var lines: [KeyLogLine] = []
        for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            guard let parsed = KeyLogLine(line) else { return nil }
            lines.append(parsed)
        }
        return lines
    }

    /// The line as it is written, without its line feed.
    public var description: String { "\(label) \(clientRandom) \(secret)" }

    private static func isHex(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
