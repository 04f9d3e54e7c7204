/// A gRPC message, header block or trailer could not be read or written.
///
/// Every failure of the wire layer is one of these. It says what kind of fault it is (``code``),
/// in words (``message``), and where: the byte offset in the stream of the message the fault was
/// found in. A fault that another library reported (zlib, the codec) keeps that report as
/// ``cause``.
///
/// Two errors are equal when their codes are equal, so a test can build the error it expects
/// from a code alone and compare; the location is checked through the properties.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of fault this is.
    ///
    /// A struct over a private enum so that new codes can be added without breaking anyone who
    /// switches over the ones that exist.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case messageTooLarge
            case truncatedMessage
            case invalidCompressedFlag
            case compressedWithoutEncoding
            case unsupportedEncoding
            case invalidCompressedData
            case compressionFailed
            case invalidMethodPath
            case missingHeader
            case invalidHeader
            case invalidMetadata
            case reservedMetadata
            case unexpectedFrame
            case incompleteStream
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// A message is longer than the receiver's limit: its length prefix says so, or it
        /// decompresses to more bytes than the limit allows.
        public static let messageTooLarge = Code(.messageTooLarge)
        /// The stream ended inside a message: in its 5-byte prefix or before its last payload byte.
        public static let truncatedMessage = Code(.truncatedMessage)
        /// A message's Compressed-Flag byte is neither 0 nor 1, the only values gRPC defines.
        public static let invalidCompressedFlag = Code(.invalidCompressedFlag)
        /// A message is flagged as compressed, but the stream's `grpc-encoding` is `identity`
        /// or absent, so there is no way to decompress it.
        public static let compressedWithoutEncoding = Code(.compressedWithoutEncoding)
        /// The `grpc-encoding` names a compression this library does not implement.
        public static let unsupportedEncoding = Code(.unsupportedEncoding)
        /// A compressed payload is not valid gzip or zlib data: corrupt, cut short, or followed
        /// by extra bytes.
        public static let invalidCompressedData = Code(.invalidCompressedData)
        /// zlib refused to compress a payload. Never expected; reported rather than hidden.
        public static let compressionFailed = Code(.compressionFailed)
        /// A `:path` is not `/Service/Method`, the form gRPC PROTOCOL-HTTP2 "Requests" gives it.
        public static let invalidMethodPath = Code(.invalidMethodPath)
        /// A header block lacks a field gRPC requires in it (`:method`, `:path`, `content-type`...).
        public static let missingHeader = Code(.missingHeader)
        /// A header field has a value gRPC does not allow there, comes twice, or is out of place.
        public static let invalidHeader = Code(.invalidHeader)
        /// A custom metadata name or value is not one gRPC allows: an upper-case or invalid name, a
        /// value outside printable ASCII, a `-bin` value that is not base64.
        public static let invalidMetadata = Code(.invalidMetadata)
        /// A custom metadata name is one the call layer writes itself or gRPC reserves
        /// (pseudo-headers, `te`, `content-type`, `grpc-*`).
        public static let reservedMetadata = Code(.reservedMetadata)
        /// A frame arrived where the gRPC protocol allows none: DATA before the headers, a second
        /// header block, anything after the end of the stream.
        public static let unexpectedFrame = Code(.unexpectedFrame)
        /// The stream stopped (the connection closed) before its END_STREAM.
        public static let incompleteStream = Code(.incompleteStream)

        /// The text the tool prints for this value.
        public var description: String {
            switch wrapped {
            case .messageTooLarge: "message too large"
            case .truncatedMessage: "truncated message"
            case .invalidCompressedFlag: "invalid compressed flag"
            case .compressedWithoutEncoding: "compressed without encoding"
            case .unsupportedEncoding: "unsupported encoding"
            case .invalidCompressedData: "invalid compressed data"
            case .compressionFailed: "compression failed"
            case .invalidMethodPath: "invalid method path"
            case .missingHeader: "missing header"
            case .invalidHeader: "invalid header"
            case .invalidMetadata: "invalid metadata"
            case .reservedMetadata: "reserved metadata"
            case .unexpectedFrame: "unexpected frame"
            case .incompleteStream: "incomplete stream"
            }
        }
    }

    /// What kind of fault this is.
    public var code: Code
    /// What was wrong, in words.
    public var message: String
    /// The byte offset in the stream of the message (its 5-byte prefix) the fault was found in.
    public var byteOffset: Int?
    /// The error another library reported, if this one wraps it.
    public var cause: (any Error & Sendable)?
    /// The source location that raised the error, for bug reports.
    public var location: SourceLocation

    /// Where in this library's source an error was raised.
    public struct SourceLocation: Hashable, Sendable {
        /// The `#fileID` of the source file.
        public var fileID: String
        /// The line in that file.
        public var line: Int
    }

    /// Creates an error; the module's own factories are the usual way.
    public init(
        code: Code,
        message: String,
        byteOffset: Int? = nil,
        cause: (any Error & Sendable)? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.cause = cause
        self.location = SourceLocation(fileID: fileID, line: line)
    }

    /// An error with just a code, for comparing in tests: `#expect(throws: WireError(.truncatedMessage))`.
    public init(_ code: Code) {
        self.init(code: code, message: code.description)
    }

    /// Whether two errors have the same code; the message and location do not count.
    public static func == (lhs: WireError, rhs: WireError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The text the tool prints for this value.
    public var description: String {
        var text = "\(code): \(message)"
        if let byteOffset { text += " (message at byte offset \(byteOffset))" }
        if let cause { text += " (cause: \(cause))" }
        return text
    }
}
