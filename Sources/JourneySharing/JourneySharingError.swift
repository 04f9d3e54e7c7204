/// Why trip pages could not be set up, or why a share link was refused: what kind of failure
/// (``code``), a message that says what and where, and the error underneath when there is one.
public struct JourneySharingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, and where.
    public var message: String
    /// The error underneath, when the system or another library reported the failure first.
    public var cause: (any Error & Sendable)?

    /// An error of `code` saying `message`, wrapping `cause` when there is one.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The message.
    public var description: String { message }

    /// Errors are equal when their codes are, so a test can build the one it expects from a code.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code, as equality compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension JourneySharingError {
    /// What kind of failure a ``JourneySharingError`` is.
    ///
    /// A struct over a private enum so that new codes can be added without breaking anyone who
    /// switches over the ones that exist.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case assetsNotFound
            case invalidShareSecret
            case malformedShareLink
            case forgedShareLink
            case expiredShareLink
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The page's scripts, styles and templates were not found, or one could not be read:
        /// neither beside the executable (its resource bundle) nor in the folder the options name.
        public static let assetsNotFound = Code(.assetsNotFound)
        /// A share-link secret too short to sign with (fewer than 32 bytes).
        public static let invalidShareSecret = Code(.invalidShareSecret)
        /// A share link's token is not one this package makes (wrong shape, bad base64, a trip name
        /// that is not UTF-8, an expiry that is not a number).
        public static let malformedShareLink = Code(.malformedShareLink)
        /// A share link whose signature does not match: altered, or signed with another secret.
        public static let forgedShareLink = Code(.forgedShareLink)
        /// A share link past its expiry.
        public static let expiredShareLink = Code(.expiredShareLink)

        /// The code's name, as written above.
        public var description: String {
            switch wrapped {
            case .assetsNotFound: "assetsNotFound"
            case .invalidShareSecret: "invalidShareSecret"
            case .malformedShareLink: "malformedShareLink"
            case .forgedShareLink: "forgedShareLink"
            case .expiredShareLink: "expiredShareLink"
            }
        }
    }
}
