public import FleetEngineStatus
import Logging
import NIOCore
import NIOSSL

/// Where a client writes the secrets of its TLS connections, so that a packet capture of them can
/// be decrypted (by Wireshark, or by `fleettrips capture` given the key log).
///
/// Each secret is one line in the NSS key log format, the format of `SSLKEYLOGFILE` (RFC 9850):
/// `LABEL <client random in hex> <secret in hex>`. A TLS 1.3 connection gives
/// `CLIENT_HANDSHAKE_TRAFFIC_SECRET`, `SERVER_HANDSHAKE_TRAFFIC_SECRET`, `CLIENT_TRAFFIC_SECRET_0`,
/// `SERVER_TRAFFIC_SECRET_0` and `EXPORTER_SECRET`; a TLS 1.2 one, `CLIENT_RANDOM` with the master
/// secret. The lines of one connection share its client random.
///
/// - Warning: The lines are secrets. Anyone who holds them and a capture of the traffic can read
///   every call: the bearer tokens, and the trips. Write them only while debugging, to a place
///   only you can read, and delete them afterwards.
///
/// Set it as ``ClientConfiguration/tlsKeyLog``; it applies to both kinds of TLS transport
/// security, and plaintext connections have no secrets to log.
public struct TLSKeyLogSink: Sendable {
    private enum Destination: Sendable {
        case lines(@Sendable (String) -> Void)
        case file(KeyLogFile)
    }

    private let destination: Destination

    /// A key log that hands each line, without its line feed, to `receive`.
    ///
    /// `receive` is called during the TLS handshake, on the connection's event loop
    /// (``FleetEngineClient/eventLoop``), possibly for several connections at once: it must be
    /// quick, must not block, and must keep the lines as secret as the traffic they unlock (never
    /// log them).
    public init(_ receive: @escaping @Sendable (_ line: String) -> Void) {
        destination = .lines(receive)
    }

    /// A key log that appends its lines to the file at `path`, each with a line feed, as
    /// `SSLKEYLOGFILE` does in curl and browsers.
    ///
    /// The file is opened here, once, and stays open while a configuration or client holds this
    /// key log; a file that does not exist is created readable and writable by its owner only
    /// (mode 0600), and one that does keeps its mode and contents, so check who may read it. Each
    /// line is written by a single `write(2)` to a file opened for appending, so the connections
    /// of one client, and other processes appending to the same file, do not split each other's
    /// lines. A line that cannot be written (a full disk) is dropped without failing the
    /// connection; the first such failure is logged as a warning by the client's logger, with the
    /// path and the system's reason, never a line.
    ///
    /// - Warning: The file holds secrets that decrypt the traffic; see ``TLSKeyLogSink``.
    /// - Throws: INVALID_ARGUMENT (origin `.local`) when the file cannot be opened for appending,
    ///   with the path and the system's reason, so a misconfigured key log fails when the
    ///   configuration is made rather than leave a capture that cannot be decrypted.
    public static func file(atPath path: String) throws(FleetEngineError) -> TLSKeyLogSink {
        TLSKeyLogSink(destination: .file(try KeyLogFile(openingForAppend: path)))
    }

    private init(destination: Destination) {
        self.destination = destination
    }

    /// swift-nio-ssl's callback for this key log, which also calls `existing` (the callback a
    /// caller's own `TLSConfiguration` carried), so that setting both loses neither.
    func keyLogCallback(chainingTo existing: NIOSSLKeyLogCallback?, logger: Logger) -> NIOSSLKeyLogCallback {
        let destination = self.destination
        return { line in
            existing?(line)
            switch destination {
            case .lines(let receive):
                // swift-nio-ssl ends each line with a line feed; the line itself is ASCII.
                var bytes = line.readableBytesView[...]
                if bytes.last == UInt8(ascii: "\n") { bytes = bytes.dropLast() }
                receive(String(decoding: bytes, as: UTF8.self))
            case .file(let file):
                if let failure = file.append(line.readableBytesView) {
                    logger.warning(
                        "cannot write to the TLS key log file; its lines are dropped",
                        metadata: ["path": "\(file.path)", "reason": "\(failure)"])
                }
            }
        }
    }
}
