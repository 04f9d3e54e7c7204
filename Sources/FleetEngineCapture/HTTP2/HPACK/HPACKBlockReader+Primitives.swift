extension HPACKBlockReader {
    /// Reads an integer with an N-bit prefix (RFC 7541 section 5.1) whose first byte is at
    /// `position`, which must be inside the block; moves `position` past it.
    ///
    /// - Parameter what: what the integer is, for the error message.
    @inline(__always)
    static func readInteger(
        _ block: ArraySlice<UInt8>,
        at position: inout Int,
        prefixBits: Int,
        what: StaticString
    ) throws(HPACKBlockError) -> Int {
        let start = position
        let prefixMask = (1 << prefixBits) - 1
        var value = Int(block[position]) & prefixMask
        position += 1
        // A value below the all-ones prefix fits in the prefix; the all-ones prefix says more
        // bytes follow, 7 bits each, least significant first.
        guard value == prefixMask else { return value }
        var shift = 0
        while true {
            guard position < block.endIndex else {
                let offset = start - block.startIndex
                throw HPACKBlockError(
                    code: .truncatedInteger,
                    message: "the block ends inside the \(what) that starts at byte \(offset)",
                    byteOffset: offset
                )
            }
            let byte = block[position]
            position += 1
            let group = Int(byte & 0x7F)
            // Section 5.1 asks decoders to guard against overflow; also cap the length, since
            // zero groups could otherwise go on forever.
            guard position - start <= maxIntegerLength, group <= (Int.max - value) >> shift else {
                let offset = start - block.startIndex
                throw HPACKBlockError(
                    code: .integerOverflow,
                    message: "the \(what) at byte \(offset) is longer than \(maxIntegerLength) bytes "
                        + "or too large for an integer",
                    byteOffset: offset
                )
            }
            value += group << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// Reads a string literal (RFC 7541 section 5.2) starting at `position`: a Huffman flag, a
    /// 7-bit-prefix length, then that many bytes, Huffman-coded (Appendix B) or raw.
    ///
    /// - Parameter what: which part of a field the string is, for the error message.
    static func readString(
        _ block: ArraySlice<UInt8>,
        at position: inout Int,
        what: StaticString
    ) throws(HPACKBlockError) -> [UInt8] {
        let offset = position - block.startIndex
        guard position < block.endIndex else {
            throw HPACKBlockError(
                code: .truncatedString,
                message: "the block ends at byte \(offset), where the field \(what)'s string literal should start",
                byteOffset: offset
            )
        }
        let huffmanCoded = block[position] & 0x80 != 0
        let length = try readInteger(block, at: &position, prefixBits: 7, what: "length of a string literal")
        let remaining = block.endIndex - position
        guard length <= remaining else {
            throw HPACKBlockError(
                code: .truncatedString,
                message: "the field \(what)'s string literal at byte \(offset) has \(length) bytes, "
                    + "but the block has only \(remaining) left",
                byteOffset: offset
            )
        }
        let bytes = block[position..<position + length]
        position += length
        guard huffmanCoded else { return Array(bytes) }

        let failure: HPACKHuffman.DecodingFailure
        switch HPACKHuffman.decode(bytes) {
        case .success(let decoded): return decoded
        case .failure(let error): failure = error
        }
        let stringStart = bytes.startIndex - block.startIndex
        switch failure {
        case .endOfString(let byteIndex):
            throw HPACKBlockError(
                code: .huffmanEndOfString,
                message: "the field \(what)'s Huffman-coded string at byte \(offset) contains the EOS symbol, "
                    + "ending in byte \(stringStart + byteIndex) (RFC 7541 section 5.2)",
                byteOffset: stringStart + byteIndex
            )
        case .paddingTooLong(let byteIndex):
            throw HPACKBlockError(
                code: .invalidHuffmanPadding,
                message: "the field \(what)'s Huffman-coded string at byte \(offset) ends with more than 7 bits "
                    + "of padding in byte \(stringStart + byteIndex) (RFC 7541 section 5.2)",
                byteOffset: stringStart + byteIndex
            )
        case .paddingNotOnes(let byteIndex):
            throw HPACKBlockError(
                code: .invalidHuffmanPadding,
                message: "the field \(what)'s Huffman-coded string at byte \(offset) ends in byte "
                    + "\(stringStart + byteIndex) with padding that is not all ones (RFC 7541 section 5.2)",
                byteOffset: stringStart + byteIndex
            )
        }
    }
}
