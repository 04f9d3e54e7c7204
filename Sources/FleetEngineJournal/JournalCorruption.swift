package import FleetEngineCodec

/// Journal bytes that cannot be replayed: damage before the end, which dropping would lose
/// acknowledged writes.
package struct JournalCorruption: Error, Sendable, CustomStringConvertible {
    /// What is wrong and at which byte, starting with the journal's path.
    package var message: String
    /// The codec's error, when an entry's checksum holds but its message does not decode.
    package var cause: CodecError?

    package init(_ message: String, cause: CodecError? = nil) {
        self.message = message
        self.cause = cause
    }

    package var description: String { message }
}
