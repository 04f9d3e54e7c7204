extension Substring {
    /// The text without the spaces and tabs that HTTP allows around a field value (RFC 9110
    /// section 5.5, optional whitespace).
    ///
    /// Trimmed by bytes, as RFC 9110 defines it (`OWS = *( SP / HTAB )`, octets), not by
    /// characters: every response's `grpc-status` and `grpc-accept-encoding` pass through here,
    /// and stepping by characters (grapheme breaking) cost more than parsing the values. So a space
    /// that a combining mark after it joins into one character is trimmed all the same.
    package func trimmingFieldWhitespace() -> Substring {
        let bytes = utf8
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isWhitespace(bytes[start]) { start = bytes.index(after: start) }
        while start < end {
            let last = bytes.index(before: end)
            guard isWhitespace(bytes[last]) else { break }
            end = last
        }
        return self[start..<end]
    }
}
