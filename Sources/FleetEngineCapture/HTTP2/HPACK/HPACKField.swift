/// One header field of a decoded HPACK header block, exactly as the sender put it on the wire.
///
/// Names and values are raw bytes, never `String`s: gRPC's "true binary metadata" lets C-core
/// peers send a `-bin` value as arbitrary bytes after a 0x00 byte, and any conversion to text
/// would lose them.
struct HPACKField: Hashable, Sendable {
    /// The field name's bytes (lowercase in HTTP/2, but kept as sent).
    var name: [UInt8]
    /// The field value's bytes.
    var value: [UInt8]
    /// Whether the sender used the "never indexed" literal (RFC 7541 section 6.2.3), asking every
    /// intermediary to keep the field out of its tables because the value is sensitive.
    var neverIndexed: Bool

    /// Creates a field from its name and value bytes.
    init(name: [UInt8], value: [UInt8], neverIndexed: Bool = false) {
        self.name = name
        self.value = value
        self.neverIndexed = neverIndexed
    }

    /// The size this field counts for in a dynamic table and in a header list: name and value
    /// lengths plus 32 bytes of estimated overhead (RFC 7541 section 4.1; RFC 9113 section 6.5.2).
    var size: Int { name.count + value.count + 32 }
}
