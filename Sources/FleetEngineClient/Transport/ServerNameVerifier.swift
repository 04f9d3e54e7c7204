import NIOSSL

/// Checks that a server certificate names the host the client connects to, by the certificate's
/// DNS names only (RFC 6125 section 6.4).
///
/// swift-nio-ssl's own check also accepts a certificate when one of its IP addresses is the
/// address the socket connected to, even when a host name is being verified: a certificate that
/// names only `127.0.0.1` passed for `fleetengine.googleapis.com`. So for a host name the
/// connection is made with `.noHostnameVerification` (the chain is still verified) and this
/// check runs after the chain is verified, before the handshake completes. An endpoint given as
/// an IP address keeps swift-nio-ssl's check, which matches IP addresses as it should.
///
/// The rules: names compare without regard to ASCII case and a trailing dot; a wildcard is only
/// the whole left-most label (`*.example.com`), matches exactly one non-empty label, and is not
/// honoured below fewer than two labels (`*.com`); the subject's common name is never read
/// (section 6.4.4 allows it only without DNS names, and public CAs put every name in the SANs).
struct ServerNameVerifier: Sendable {
    /// The name checked for, as given (for messages).
    let hostname: String
    private let reference: [UInt8]

    /// How many of a certificate's names an error shows: a certificate is the server's choice.
    static let namesShown = 5
    /// How long a shown name may be.
    static let nameLengthShown = 100

    init(hostname: String) {
        self.hostname = hostname
        self.reference = Self.normalized(Array(hostname.utf8))
    }

    /// Returns when `certificate` names the host; throws the mismatch otherwise.
    func verify(_ certificate: NIOSSLCertificate) throws(ServerNameMismatch) {
        var shown: [String] = []
        var count = 0
        for name in certificate._subjectAlternativeNames() where name.nameType == .dnsName {
            let pattern = name.contents.withUnsafeBufferPointer { Array($0) }
            if matches(pattern: pattern) { return }
            count += 1
            if shown.count < Self.namesShown { shown.append(Self.shown(pattern)) }
        }
        throw ServerNameMismatch(hostname: hostname, dnsNames: shown, dnsNameCount: count)
    }

    /// A certificate's name as an error shows it: at most ``nameLengthShown`` bytes, each outside
    /// printable ASCII as `?`, as the name is the server's choice and may hold a line break.
    static func shown(_ name: [UInt8]) -> String {
        let printable = UInt8(ascii: "!")...UInt8(ascii: "~")
        let bytes = name.prefix(nameLengthShown).map { printable.contains($0) ? $0 : UInt8(ascii: "?") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the DNS name `pattern` from a certificate covers the host.
    func matches(pattern: [UInt8]) -> Bool {
        let pattern = Self.normalized(pattern)
        guard !pattern.isEmpty, !reference.isEmpty else { return false }
        let star = UInt8(ascii: "*")
        let dot = UInt8(ascii: ".")
        guard pattern.first == star else {
            // A `*` anywhere else (`f*.example.com`) is not a wildcard RFC 6125 lets us honour.
            return !pattern.contains(star) && pattern == reference
        }
        // `*.` then at least two labels, and no other `*`.
        let suffix = pattern.dropFirst()
        guard suffix.first == dot, !suffix.contains(star), suffix.dropFirst().contains(dot) else { return false }
        guard let firstDot = reference.firstIndex(of: dot), firstDot > 0 else { return false }
        return reference[firstDot...].elementsEqual(suffix)
    }

    /// ASCII lower case, without one trailing dot (`example.com.` is `example.com`).
    private static func normalized(_ name: [UInt8]) -> [UInt8] {
        var bytes = name.map { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        return bytes
    }
}
