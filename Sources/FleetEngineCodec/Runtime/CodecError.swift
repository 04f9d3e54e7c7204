/// A message could not be decoded, encoded or converted to or from JSON.
///
/// Every failure of the codec is one of these. It says what was wrong (``code``), in words
/// (``message``), and where: the byte offset in the binary input or JSON text, the field number
/// and the path of fields from the top-level message down to the place of the fault.
///
/// Two errors are equal when their codes are equal, so a test can build the error it expects
/// from a code alone and compare; the location is checked through the properties.
public struct CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of fault this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case truncated
            case malformedVarint
            case lengthPastEnd
            case invalidUTF8
            case unmatchedEndGroup
            case invalidFieldNumber
            case invalidWireType
            case messageTooLarge
            case nestingTooDeep
            case memoryLimitExceeded
            case resourceExhausted
            case invalidJSON
            case unknownJSONField
            case invalidJSONValue
            case unknownTypeURL
            case unknownMessageType
            case rejectedByProtobufC
            case invalidBase64
            case canonicallyEquivalentMapKeys
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The input ended inside a tag, a value or a group.
        public static let truncated = Code(.truncated)
        /// A varint ran past 10 bytes, or a tag or a length took more than the 5 bytes of a 32-bit value.
        public static let malformedVarint = Code(.malformedVarint)
        /// A length-delimited field claims more bytes than its message has, or 2^31 bytes or more.
        public static let lengthPastEnd = Code(.lengthPastEnd)
        /// A `string` field, or a JSON text, is not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// An end-group tag arrived with no matching start-group tag.
        public static let unmatchedEndGroup = Code(.unmatchedEndGroup)
        /// A tag names field 0, or a field number above 536,870,911 (2^29 - 1).
        public static let invalidFieldNumber = Code(.invalidFieldNumber)
        /// A tag has wire type 6 or 7, which protobuf does not define.
        public static let invalidWireType = Code(.invalidWireType)
        /// The input is larger than ``DecodingOptions/maxMessageSize``.
        public static let messageTooLarge = Code(.messageTooLarge)
        /// Groups nest deeper than ``DecodingOptions/maxNestingDepth``.
        public static let nestingTooDeep = Code(.nestingTooDeep)
        /// Decoding would take more memory than the decoder allows itself for an input this size.
        public static let memoryLimitExceeded = Code(.memoryLimitExceeded)
        /// The decoded message would take more memory than ``DecodingOptions/maxDecodedSize``. The
        /// message names the bound, and ``CodecError/fieldPath`` the message (and the field, when
        /// known) whose values went past it. gRPC reports it as `RESOURCE_EXHAUSTED`.
        public static let resourceExhausted = Code(.resourceExhausted)
        /// The text is not JSON (RFC 8259).
        public static let invalidJSON = Code(.invalidJSON)
        /// A JSON object names a field the message type does not have.
        public static let unknownJSONField = Code(.unknownJSONField)
        /// A JSON value has the wrong type or an out-of-range value for its field.
        public static let invalidJSONValue = Code(.invalidJSONValue)
        /// A `google.protobuf.Any` names a type this codec does not know, so it cannot be shown as JSON.
        public static let unknownTypeURL = Code(.unknownTypeURL)
        /// A message type name is not one of the types in Protos/.
        public static let unknownMessageType = Code(.unknownMessageType)
        /// protobuf-c refused input that the codec's own checks found well-formed. Never expected;
        /// reported rather than hidden.
        public static let rejectedByProtobufC = Code(.rejectedByProtobufC)
        /// Text that should be base64 (RFC 4648) is not: a character outside both alphabets,
        /// misplaced padding, or a length that leaves a character over.
        public static let invalidBase64 = Code(.invalidBase64)
        /// A `map<string, …>` field holds two keys that are canonically equivalent but not the same
        /// code points (`"\u{E9}"` and `"e\u{301}"`): two keys to protobuf, one to Swift's `String`,
        /// so the map's `[String: …]` could not keep both.
        public static let canonicallyEquivalentMapKeys = Code(.canonicallyEquivalentMapKeys)

        public var description: String {
            switch wrapped {
            case .truncated: "truncated"
            case .malformedVarint: "malformed varint"
            case .lengthPastEnd: "length past end"
            case .invalidUTF8: "invalid UTF-8"
            case .unmatchedEndGroup: "unmatched end group"
            case .invalidFieldNumber: "invalid field number"
            case .invalidWireType: "invalid wire type"
            case .messageTooLarge: "message too large"
            case .nestingTooDeep: "nesting too deep"
            case .memoryLimitExceeded: "memory limit exceeded"
            case .resourceExhausted: "resource exhausted"
            case .invalidBase64: "invalid base64"
            case .canonicallyEquivalentMapKeys: "canonically equivalent map keys"
            case .invalidJSON: "invalid JSON"
            case .unknownJSONField: "unknown JSON field"
            case .invalidJSONValue: "invalid JSON value"
            case .unknownTypeURL: "unknown type URL"
            case .unknownMessageType: "unknown message type"
            case .rejectedByProtobufC: "rejected by protobuf-c"
            }
        }
    }

    /// What kind of fault this is.
    public var code: Code
    /// What was wrong, in words, with the place it was found.
    public var message: String
    /// Where in the input the fault starts: a byte offset into the binary message or JSON text.
    public var byteOffset: Int?
    /// The number of the field being read when the fault was found, if any.
    public var fieldNumber: Int?
    /// The fields from the top-level message to the fault, e.g. `maps.fleetengine.v1.Trip.route[3].latitude`.
    public var fieldPath: String?
    /// The source location that raised the error, for bug reports.
    public var location: SourceLocation

    /// Where in this library's source an error was raised.
    public struct SourceLocation: Hashable, Sendable {
        public var fileID: String
        public var line: Int
    }

    /// Creates an error; the library's own factories below are the usual way.
    public init(
        code: Code,
        message: String,
        byteOffset: Int? = nil,
        fieldNumber: Int? = nil,
        fieldPath: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.fieldNumber = fieldNumber
        self.fieldPath = fieldPath
        self.location = SourceLocation(fileID: fileID, line: line)
    }

    /// An error with just a code, for comparing in tests: `#expect(throws: CodecError(.truncated))`.
    public init(_ code: Code) {
        self.init(code: code, message: code.description)
    }

    public static func == (lhs: CodecError, rhs: CodecError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(code): \(message)"
        var places: [String] = []
        if let byteOffset { places.append("byte offset \(byteOffset)") }
        if let fieldNumber { places.append("field \(fieldNumber)") }
        if let fieldPath { places.append("at \(fieldPath)") }
        if !places.isEmpty { text += " (" + places.joined(separator: ", ") + ")" }
        return text
    }
}
