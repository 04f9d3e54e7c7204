/// Finds where bytes stop being UTF-8, as RFC 3629 defines it.
enum UTF8Validation {
    /// The index of the first byte that does not belong to a well-formed UTF-8 sequence, or nil.
    ///
    /// RFC 3629 section 4: no overlong forms, no surrogates (U+D800...U+DFFF), nothing past U+10FFFF.
    static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        while index < count {
            // Most text here is ASCII: skip it eight bytes at a time.
            while index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xbf
            switch lead {
            case 0xc2...0xdf: length = 2
            case 0xe0:
                length = 3
                lower = 0xa0
            case 0xe1...0xec, 0xee...0xef: length = 3
            case 0xed:
                length = 3
                upper = 0x9f
            case 0xf0:
                length = 4
                lower = 0x90
            case 0xf1...0xf3: length = 4
            case 0xf4:
                length = 4
                upper = 0x8f
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return index }
            for offset in 2..<length where bytes[index + offset] & 0xc0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}
