/// The emulator could not start, could not listen, or could not keep its state on disk: what kind
/// of failure (``code``), a message saying what and where, and the error underneath when another
/// library or the system reported one (``cause``).
///
/// Failures of calls are not these: a call fails with the `FleetEngineError` Fleet Engine would send.
public struct EmulatorError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, and where.
    public var message: String
    /// The error underneath: the transport's when listening failed, an `IOError` carrying the
    /// system's error number when a system call on the data folder failed, the codec's when a
    /// journal entry could not be read.
    public var cause: (any Error & Sendable)?

    /// An error of `code` saying `message`, wrapping `cause` when there is one.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The message, which names the cause's own words where there is one.
    public var description: String { message }
}
