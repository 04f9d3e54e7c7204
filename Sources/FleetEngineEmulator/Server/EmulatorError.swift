/// The emulator could not start, or could not keep its state on disk: a message saying what and where.
///
/// Failures of calls are not these: a call fails with the `FleetEngineError` Fleet Engine would send.
public struct EmulatorError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, and where.
    public var message: String

    /// An error with a message.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
