import FleetEngineStatus

/// A `fleettrips` command could not do what it was asked.
///
/// The message says what failed and where (a line of the input, a message of a gRPC stream, a
/// byte offset); a fault the codec or the wire layer found is kept as ``cause``, and its own
/// description (what and where inside the message) ends the line the tool prints.
///
/// Two errors are equal when their codes are equal.
package struct FleetTripsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case unreadableInput
            case unwritableOutput
            case invalidInputText
            case invalidMessage
            case invalidFraming
            case tokenUnavailable
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The input file or standard input could not be read.
        package static let unreadableInput = Code(.unreadableInput)
        /// Standard output could not be written.
        package static let unwritableOutput = Code(.unwritableOutput)
        /// The input is not the base64 or hex text the flags announced.
        package static let invalidInputText = Code(.invalidInputText)
        /// The codec refused a message: binary that does not decode, JSON that does not parse.
        package static let invalidMessage = Code(.invalidMessage)
        /// The gRPC message framing is broken: truncated, oversized, or undecompressable.
        package static let invalidFraming = Code(.invalidFraming)
        /// No token could be had from `--token-file` or `--token-command`.
        package static let tokenUnavailable = Code(.tokenUnavailable)

        /// The text the tool prints for this value.
        package var description: String {
            switch wrapped {
            case .unreadableInput: "unreadable input"
            case .unwritableOutput: "unwritable output"
            case .invalidInputText: "invalid input text"
            case .invalidMessage: "invalid message"
            case .invalidFraming: "invalid framing"
            case .tokenUnavailable: "token unavailable"
            }
        }
    }

    /// What kind of failure this is.
    package var code: Code
    /// What failed and where, in words.
    package var message: String
    /// The codec's or wire layer's own error, when one of them found the fault.
    package var cause: (any Error & Sendable)?

    /// Creates an error.
    package init(code: Code, message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// An error with just a code, for comparing in tests.
    package init(_ code: Code) {
        self.init(code: code, message: code.description)
    }

    /// Whether two errors have the same code; the message and location do not count.
    package static func == (lhs: FleetTripsError, rhs: FleetTripsError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, consistent with `==`.
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// One line: the message, then the cause's own description when there is one, with control
    /// characters escaped (``TerminalText``), as the message may quote the input or a server.
    package var description: String {
        guard let cause else { return TerminalText.escaped("\(code): \(message)") }
        return TerminalText.escaped("\(message): \(cause)")
    }
}
