/// Why a JSON Web Token was refused, or could not be made.
///
/// Verification turns these into a `FleetEngineError` with UNAUTHENTICATED and
/// an `ErrorInfo` whose reason is ``Code/reason``; the lower-level API (``JSONWebToken``,
/// ``TokenVerifier/verify(token:)``, ``TokenMinter``) throws them as they are.
///
/// The message says what was wrong and where, and never contains the token: a token is a
/// credential, and error messages end up in logs.
///
/// Two errors are equal when their codes are equal, so a test can build the error it expects from
/// a code alone.
public struct JWTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// What went wrong, in words.
    public var message: String
    /// Extra context for the `ErrorInfo` detail, keyed by lowerCamelCase names (`expiredAt`, `keyId`).
    public var metadata: [String: String]
    /// The error underneath, when a decoder or a crypto library reported the failure first.
    public var cause: (any Error)?
    /// The source file that raised the error (`#fileID`).
    public var file: String
    /// The line that raised the error.
    public var line: Int

    /// An error with a code and a message; `file` and `line` default to the caller's.
    public init(
        code: Code,
        message: String,
        metadata: [String: String] = [:],
        cause: (any Error)? = nil,
        file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.metadata = metadata
        self.cause = cause
        self.file = file
        self.line = line
    }

    public static func == (lhs: JWTError, rhs: JWTError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// `text` cut to 64 Unicode scalars, for quoting a value the token chose (`kid`, `aud`, `alg`)
    /// in a message: a caller could put anything there, of any length.
    ///
    /// Scalars, not `Character`s: one character can hold any number of combining marks, and a
    /// quote of a few of them, in the message and again in the `ErrorInfo`, outgrew the trailer
    /// size clients accept (grpcio's 16 KiB), so the caller saw RESOURCE_EXHAUSTED.
    package static func excerpt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 64 else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(64))) + "…"
    }

    /// `TOKEN_EXPIRED: <message>`, and the cause if there is one.
    public var description: String {
        var text = "\(code.reason): \(message)"
        if let cause { text += "; caused by: \(cause)" }
        return text
    }
}

extension JWTError {
    /// A kind of token failure. A struct over a private enum, so that new codes never break a
    /// `switch` in user code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case missingToken
            case unsupportedScheme
            case malformedToken
            case unsupportedAlgorithm
            case unknownKeyID
            case algorithmMismatch
            case invalidSignature
            case missingExpiration
            case expired
            case notYetValid
            case audienceMismatch
            case missingTripID
            case invalidKey
            case invalidClaims
            case signingFailed
        }

        private var wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// No `authorization` header, or one with an empty credential.
        public static let missingToken = Code(.missingToken)
        /// The `authorization` header does not use the `Bearer` scheme (RFC 6750 section 2.1).
        public static let unsupportedScheme = Code(.unsupportedScheme)
        /// The text is not a JWS in compact serialization: wrong number of parts, bad base64url,
        /// a header or claims set that is not a JSON object, a claim of the wrong type.
        public static let malformedToken = Code(.malformedToken)
        /// The `alg` header names an algorithm the verifier does not accept (`none` among them).
        public static let unsupportedAlgorithm = Code(.unsupportedAlgorithm)
        /// The `kid` header names no configured key.
        public static let unknownKeyID = Code(.unknownKeyID)
        /// No configured key (of those the `kid` selects) is of the type `alg` names: the guard
        /// against algorithm confusion.
        public static let algorithmMismatch = Code(.algorithmMismatch)
        /// The signature does not verify with any candidate key.
        public static let invalidSignature = Code(.invalidSignature)
        /// The token has no `exp` claim; Fleet Engine requires one.
        public static let missingExpiration = Code(.missingExpiration)
        /// The `exp` time has passed (RFC 7519 section 4.1.4).
        public static let expired = Code(.expired)
        /// The `nbf` or `iat` time is in the future by more than the leeway.
        public static let notYetValid = Code(.notYetValid)
        /// The `aud` claim does not name the configured audience (RFC 7519 section 4.1.3).
        public static let audienceMismatch = Code(.audienceMismatch)
        /// The token's `authorization` claim carries no `tripid`: it is not a TripService token.
        public static let missingTripID = Code(.missingTripID)
        /// A key could not be read or is too weak.
        public static let invalidKey = Code(.invalidKey)
        /// A token could not be minted from the claims asked for.
        public static let invalidClaims = Code(.invalidClaims)
        /// The crypto library failed to sign.
        public static let signingFailed = Code(.signingFailed)

        /// The `ErrorInfo` reason for this code, in UPPER_SNAKE_CASE (`TOKEN_EXPIRED`).
        public var reason: String {
            switch wrapped {
            case .missingToken: "MISSING_TOKEN"
            case .unsupportedScheme: "UNSUPPORTED_AUTHORIZATION_SCHEME"
            case .malformedToken: "MALFORMED_TOKEN"
            case .unsupportedAlgorithm: "UNSUPPORTED_ALGORITHM"
            case .unknownKeyID: "UNKNOWN_KEY_ID"
            case .algorithmMismatch: "ALGORITHM_MISMATCH"
            case .invalidSignature: "INVALID_SIGNATURE"
            case .missingExpiration: "MISSING_EXPIRATION_CLAIM"
            case .expired: "TOKEN_EXPIRED"
            case .notYetValid: "TOKEN_NOT_YET_VALID"
            case .audienceMismatch: "AUDIENCE_MISMATCH"
            case .missingTripID: "MISSING_TRIP_ID_CLAIM"
            case .invalidKey: "INVALID_KEY"
            case .invalidClaims: "INVALID_CLAIMS"
            case .signingFailed: "SIGNING_FAILED"
            }
        }

        /// The ``reason``.
        public var description: String { reason }
    }
}
