import FleetEngineStatus
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A key log file opened for appending, the file of ``TLSKeyLogSink/file(atPath:)``; closed when the
/// last key log that holds it is gone.
final class KeyLogFile: Sendable {
    /// The path as given, for the one warning a failed write gets.
    let path: String
    private let descriptor: Int32
    /// Whether a failed write has been reported; held while writing, so that the lines of
    /// connections handshaking at once are written one after another.
    private let failureReported = Mutex(false)

    /// Opens (or creates, with mode 0600) the file at `path` for appending.
    ///
    /// - Throws: INVALID_ARGUMENT naming the path and the system's reason.
    init(openingForAppend path: String) throws(FleetEngineError) {
        // O_APPEND: every write lands at the end as one piece, whoever else appends (another
        // client, a browser with the same SSLKEYLOGFILE). 0600: the lines decrypt the traffic.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw FleetEngineError(
                code: .invalidArgument,
                message: "cannot open the TLS key log file '\(path)' for appending: \(reason)",
                origin: .local)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Appends `line` (with a line feed, added when missing) in one write; returns the system's
    /// reason when this is the first write that failed, and nil otherwise.
    func append(_ line: some Collection<UInt8>) -> String? {
        var bytes = Array(line)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return failureReported.withLock { reported -> String? in
            var written = 0
            while written < bytes.count {
                let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    guard !reported else { return nil }
                    reported = true
                    return result < 0 ? String(cString: strerror(errno)) : "nothing was written"
                }
                written += result
            }
            return nil
        }
    }
}
