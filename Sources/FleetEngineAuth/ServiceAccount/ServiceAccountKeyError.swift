/// Why a service account key could not be loaded: which field, in which file, is at fault.
///
/// The message names the field and the file (or `GOOGLE_APPLICATION_CREDENTIALS`) and never
/// contains the private key, nor any other value read from the file but the `type`: a key file
/// is a credential, and error messages end up in logs.
///
/// Two errors are equal when their codes and fields are equal, so a test can build the error it
/// expects.
public struct ServiceAccountKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in words, naming the field and where the key came from.
    public var message: String
    /// The JSON member at fault (`private_key`), nil when the failure is the file's as a whole.
    public var field: String?
    /// The path of the key file, nil for a key given as bytes.
    public var path: String?
    /// The error underneath, when the file system reported the failure first.
    public var cause: (any Error)?
    /// The source file that raised the error (`#fileID`).
    public var file: String
    /// The line that raised the error.
    public var line: Int

    /// An error with a code and a message; `file` and `line` default to the caller's.
    public init(
        code: Code,
        message: String,
        field: String? = nil,
        path: String? = nil,
        cause: (any Error)? = nil,
        file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.field = field
        self.path = path
        self.cause = cause
        self.file = file
        self.line = line
    }

    public static func == (lhs: ServiceAccountKeyError, rhs: ServiceAccountKeyError) -> Bool {
        lhs.code == rhs.code && lhs.field == rhs.field
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(field)
    }

    /// `MISSING_FIELD: <message>`, and the cause if there is one.
    public var description: String {
        var text = "\(code): \(message)"
        if let cause { text += "; caused by: \(cause)" }
        return text
    }
}

extension ServiceAccountKeyError {
    /// A kind of key file failure. A struct over a private enum, so that new codes never break a
    /// `switch` in user code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case unreadableFile
            case notJSON
            case missingField
            case wrongFieldType
            case notServiceAccount
            case invalidPrivateKey
        }

        private var wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The file could not be opened or read, or is too large to be a key file.
        public static let unreadableFile = Code(.unreadableFile)
        /// The bytes are not a JSON object.
        public static let notJSON = Code(.notJSON)
        /// A field the key needs is absent (or empty).
        public static let missingField = Code(.missingField)
        /// A field the key needs is not a string.
        public static let wrongFieldType = Code(.wrongFieldType)
        /// `type` is not `service_account` (an OAuth client, a user's credentials...).
        public static let notServiceAccount = Code(.notServiceAccount)
        /// `private_key` is not an unencrypted PKCS#8 PEM RSA private key of 2048 bits or more.
        public static let invalidPrivateKey = Code(.invalidPrivateKey)

        /// The code in UPPER_SNAKE_CASE (`MISSING_FIELD`).
        public var description: String {
            switch wrapped {
            case .unreadableFile: "UNREADABLE_FILE"
            case .notJSON: "NOT_JSON"
            case .missingField: "MISSING_FIELD"
            case .wrongFieldType: "WRONG_FIELD_TYPE"
            case .notServiceAccount: "NOT_SERVICE_ACCOUNT"
            case .invalidPrivateKey: "INVALID_PRIVATE_KEY"
            }
        }
    }
}
