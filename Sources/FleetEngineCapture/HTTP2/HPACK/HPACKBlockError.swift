/// An HPACK header block could not be decoded (RFC 7541); in HTTP/2 terms, a COMPRESSION_ERROR.
///
/// It says what kind of fault it is (``code``), in words (``message``), and where: ``byteOffset``
/// counts from the first byte of the block that was handed to ``HPACKBlockReader/decode(_:)``.
/// Which byte that is depends on the fault, as each ``Code`` says.
struct HPACKBlockError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of fault this is.
    ///
    /// A struct over a private enum so that new codes can be added without breaking anyone who
    /// switches over the ones that exist.
    struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case truncatedInteger
            case integerOverflow
            case truncatedString
            case invalidHuffmanPadding
            case huffmanEndOfString
            case invalidIndex
            case tableSizeUpdateTooLarge
            case tableSizeUpdateNotAtStart
            case headerListTooLarge
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The block ends inside an integer (RFC 7541 section 5.1); the offset is the integer's
        /// first byte.
        static let truncatedInteger = Code(.truncatedInteger)
        /// An integer takes more than ``HPACKBlockReader/maxIntegerLength`` bytes or does not fit
        /// in an `Int`; the offset is the integer's first byte.
        static let integerOverflow = Code(.integerOverflow)
        /// The block ends before a string literal does (RFC 7541 section 5.2); the offset is the
        /// literal's first byte (its length prefix).
        static let truncatedString = Code(.truncatedString)
        /// A Huffman-coded string ends with padding longer than 7 bits or padding that is not the
        /// start of the EOS code (RFC 7541 section 5.2); the offset is the string's last byte.
        static let invalidHuffmanPadding = Code(.invalidHuffmanPadding)
        /// A Huffman-coded string contains the EOS symbol (RFC 7541 section 5.2); the offset is the
        /// byte in which the EOS code ends.
        static let huffmanEndOfString = Code(.huffmanEndOfString)
        /// An index is 0, or beyond both the static and the dynamic table (RFC 7541 section 2.3.3);
        /// the offset is the first byte of the field representation.
        static let invalidIndex = Code(.invalidIndex)
        /// A dynamic table size update asks for more than the receiver's limit (RFC 7541
        /// section 6.3); the offset is the update's first byte.
        static let tableSizeUpdateTooLarge = Code(.tableSizeUpdateTooLarge)
        /// A dynamic table size update follows a header field (RFC 7541 section 4.2); the offset is
        /// the update's first byte.
        static let tableSizeUpdateNotAtStart = Code(.tableSizeUpdateNotAtStart)
        /// The decoded fields add up to more than ``HPACKBlockReader/maxHeaderListSize``; the
        /// offset is the first byte of the field that crossed the limit.
        static let headerListTooLarge = Code(.headerListTooLarge)

        /// The code in words.
        var description: String {
            switch wrapped {
            case .truncatedInteger: "truncated integer"
            case .integerOverflow: "integer overflow"
            case .truncatedString: "truncated string"
            case .invalidHuffmanPadding: "invalid Huffman padding"
            case .huffmanEndOfString: "EOS in Huffman string"
            case .invalidIndex: "invalid index"
            case .tableSizeUpdateTooLarge: "table size update too large"
            case .tableSizeUpdateNotAtStart: "table size update not at start"
            case .headerListTooLarge: "header list too large"
            }
        }
    }

    /// What kind of fault this is.
    var code: Code
    /// What was wrong and where, in words.
    var message: String
    /// The offset of the faulty byte within the block, counted from the block's first byte.
    var byteOffset: Int

    /// Creates an error.
    init(code: Code, message: String, byteOffset: Int) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
    }

    /// The code and the message (which says where), for logs.
    var description: String {
        "HPACK \(code): \(message)"
    }
}
