/// The secrets of TLS connections, by client random: what decrypts the TLS connections of a
/// capture.
///
/// Read from an NSS key log (the file `SSLKEYLOGFILE` names, RFC 9850) with
/// ``init(parsing:source:)``, built from entries, or merged from several logs. The capture decoder
/// takes one in ``CaptureOptions/tlsKeyLog`` and adds the keys a pcapng file carries in its
/// Decryption Secrets Blocks.
///
/// The log holds secrets: nothing in this type prints one, and errors about a line name the line,
/// never its secret.
public struct TLSKeyLog: Sendable, CustomStringConvertible, CustomReflectable {
    /// What the log holds for one connection.
    struct Secrets: Sendable, Hashable {
        var masterSecret: [UInt8]?
        var clientHandshakeTrafficSecret: [UInt8]?
        var serverHandshakeTrafficSecret: [UInt8]?
        var clientTrafficSecret0: [UInt8]?
        var serverTrafficSecret0: [UInt8]?
    }

    private(set) var secrets: [[UInt8]: Secrets] = [:]

    /// An empty log.
    public init() {}

    /// A log of these entries; entries with labels this package does not use are left out.
    public init(entries: some Sequence<TLSKeyLogEntry>) {
        for entry in entries { add(entry) }
    }

    /// Reads an NSS key log: one `LABEL CLIENT_RANDOM SECRET` line per secret, both in hex, with
    /// `#` comments, blank lines and CRLF line ends allowed. Labels this package does not use
    /// (exporter and early traffic secrets) are read and left out.
    ///
    /// - Parameters:
    ///   - text: the log's bytes.
    ///   - source: what the log is, for errors: a file name, or where in a capture it was found.
    /// - Throws: ``CaptureError/Code/malformedKeyLog`` for the first line that is not such a line,
    ///   naming `source` and the line number, with the line's byte offset in `text`.
    public init(parsing text: some Collection<UInt8>, source: String) throws(CaptureError) {
        for entry in try Self.entries(parsing: text, source: source) { add(entry) }
    }

    /// The entries of an NSS key log, every label kept, in the order of the log.
    ///
    /// - Throws: ``CaptureError/Code/malformedKeyLog`` as ``init(parsing:source:)`` does.
    public static func entries(
        parsing text: some Collection<UInt8>, source: String
    ) throws(CaptureError) -> [TLSKeyLogEntry] {
        let bytes = Array(text)
        var entries: [TLSKeyLogEntry] = []
        var lineStart = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            lineNumber += 1
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if let entry = try entry(
                in: bytes[lineStart..<lineEnd], source: source, lineNumber: lineNumber, byteOffset: lineStart)
            {
                entries.append(entry)
            }
            lineStart = lineEnd + 1
        }
        return entries
    }

    /// Adds an entry; a later secret for the same label and connection replaces the earlier one.
    public mutating func add(_ entry: TLSKeyLogEntry) {
        switch entry.label {
        case .clientRandom: secrets[entry.clientRandom, default: Secrets()].masterSecret = entry.secret
        case .clientHandshakeTrafficSecret:
            secrets[entry.clientRandom, default: Secrets()].clientHandshakeTrafficSecret = entry.secret
        case .serverHandshakeTrafficSecret:
            secrets[entry.clientRandom, default: Secrets()].serverHandshakeTrafficSecret = entry.secret
        case .clientTrafficSecret0:
            secrets[entry.clientRandom, default: Secrets()].clientTrafficSecret0 = entry.secret
        case .serverTrafficSecret0:
            secrets[entry.clientRandom, default: Secrets()].serverTrafficSecret0 = entry.secret
        default: break
        }
    }

    /// Adds every secret of `other`; where both hold one, `other`'s wins.
    public mutating func merge(_ other: TLSKeyLog) {
        for (clientRandom, theirs) in other.secrets {
            var ours = secrets[clientRandom, default: Secrets()]
            ours.masterSecret = theirs.masterSecret ?? ours.masterSecret
            ours.clientHandshakeTrafficSecret = theirs.clientHandshakeTrafficSecret ?? ours.clientHandshakeTrafficSecret
            ours.serverHandshakeTrafficSecret = theirs.serverHandshakeTrafficSecret ?? ours.serverHandshakeTrafficSecret
            ours.clientTrafficSecret0 = theirs.clientTrafficSecret0 ?? ours.clientTrafficSecret0
            ours.serverTrafficSecret0 = theirs.serverTrafficSecret0 ?? ours.serverTrafficSecret0
            secrets[clientRandom] = ours
        }
    }

    /// How many connections (client randoms) the log holds secrets for.
    public var connectionCount: Int { secrets.count }

    /// Whether the log holds no secret.
    public var isEmpty: Bool { secrets.isEmpty }

    /// How many connections the log holds secrets for; never a secret, nor a client random.
    public var description: String { "TLSKeyLog(secrets of \(secrets.count) TLS connections, not shown)" }

    /// A mirror without the secrets, so that `dump`, debuggers and the description of a value
    /// that holds a log (``CaptureOptions``) do not show them either.
    public var customMirror: Mirror { Mirror(self, children: ["connectionCount": secrets.count]) }

    /// What the log holds for the connection whose ClientHello had `clientRandom`.
    func secrets(forClientRandom clientRandom: [UInt8]) -> Secrets? { secrets[clientRandom] }

    // MARK: Lines

    /// The entry on one line, nil for a blank line or a comment.
    private static func entry(
        in line: ArraySlice<UInt8>, source: String, lineNumber: Int, byteOffset: Int
    ) throws(CaptureError) -> TLSKeyLogEntry? {
        var line = line
        while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == 0x09 {
            line.removeLast()
        }
        while let first = line.first, first == UInt8(ascii: " ") || first == 0x09 { line.removeFirst() }
        if line.isEmpty || line.first == UInt8(ascii: "#") { return nil }
        func malformed(_ problem: String) -> CaptureError {
            CaptureError(
                code: .malformedKeyLog, message: "\(source) line \(lineNumber): \(problem)",
                byteOffset: Int64(byteOffset))
        }
        let fields = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == 0x09 })
        guard fields.count == 3 else {
            throw malformed(
                "has \(fields.count) fields; a key log line is LABEL CLIENT_RANDOM SECRET, separated by spaces")
        }
        let labelText = fields[0]
        guard
            labelText.allSatisfy({
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            })
        else {
            throw malformed("its label is not made of capital letters, digits and underscores")
        }
        let label = TLSKeyLogEntry.Label(rawValue: String(decoding: labelText, as: UTF8.self))
        guard let clientRandom = hexBytes(fields[1]) else {
            throw malformed("the second field (\(label)'s client random) is not hex of whole bytes")
        }
        guard let secret = hexBytes(fields[2]) else {
            throw malformed("the third field (the secret) is not hex of whole bytes")
        }
        guard TLSKeyLogEntry.Label.used.contains(label) else {
            return TLSKeyLogEntry(label: label, clientRandom: clientRandom, secret: secret)
        }
        guard clientRandom.count == 32 else {
            throw malformed("the client random has \(clientRandom.count) bytes instead of 32")
        }
        if label == .clientRandom {
            guard secret.count == 48 else {
                throw malformed("the CLIENT_RANDOM master secret has \(secret.count) bytes instead of 48")
            }
        } else {
            guard secret.count == 32 || secret.count == 48 else {
                throw malformed(
                    "the \(label) secret has \(secret.count) bytes; TLS 1.3 secrets have 32 (SHA-256) or 48 "
                        + "(SHA-384)")
            }
        }
        return TLSKeyLogEntry(label: label, clientRandom: clientRandom, secret: secret)
    }

    /// The bytes a run of hex digits spells, nil unless it is an even number of hex digits.
    private static func hexBytes(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            guard let high = TLSHex.value(digits[index]), let low = TLSHex.value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
