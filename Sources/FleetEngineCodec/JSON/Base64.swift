/// Base64 (RFC 4648) for `bytes` fields in proto3 JSON.
///
/// Printing uses the standard alphabet with padding (RFC 4648 section 4), as Google's printers do.
/// Reading accepts what the proto3 JSON mapping allows: the standard or the URL-safe alphabet
/// (section 5), with or without padding. Unlike Python's lenient decoder it refuses characters outside
/// both alphabets (spaces and line breaks included), padding anywhere but at the end, and a length that
/// leaves a single character over; unused low bits of the last character are ignored, as Python does.
///
/// Package-visible so that every module encodes with this one: the status layer reads and writes
/// `grpc-status-details-bin` by the same rules (gRPC's PROTOCOL-HTTP2, "Requests": binary header
/// values are base64, padded or not), and the emulator writes JWTs and page tokens with it. Two
/// decoders stay apart on purpose: the emulator's JWT decoder, which must refuse every spelling
/// but the canonical one, and the command-line tool's, which reads pasted text in pieces.
package enum Base64 {
    /// Appends the base64 form of `data`, padded to a multiple of four characters unless `padded` is
    /// false (gRPC senders leave the padding off `-bin` header values), in the standard alphabet, or
    /// the URL-safe one of RFC 4648 section 5 when `urlSafe` is true (JWTs, Fleet Engine's encoded
    /// route segments).
    package static func encode(
        _ data: [UInt8], into output: inout [UInt8], padded: Bool = true, urlSafe: Bool = false
    ) {
        let alphabet: StaticString =
            urlSafe
            ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        output.reserveCapacity(output.count + (data.count + 2) / 3 * 4)
        alphabet.withUTF8Buffer { table in
            var index = 0
            while index + 3 <= data.count {
                let group = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
                output.append(table[Int(group >> 18)])
                output.append(table[Int(group >> 12 & 0x3F)])
                output.append(table[Int(group >> 6 & 0x3F)])
                output.append(table[Int(group & 0x3F)])
                index += 3
            }
            switch data.count - index {
            case 1:
                let group = UInt32(data[index]) << 16
                output.append(table[Int(group >> 18)])
                output.append(table[Int(group >> 12 & 0x3F)])
                if padded {
                    output.append(UInt8(ascii: "="))
                    output.append(UInt8(ascii: "="))
                }
            case 2:
                let group = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8
                output.append(table[Int(group >> 18)])
                output.append(table[Int(group >> 12 & 0x3F)])
                output.append(table[Int(group >> 6 & 0x3F)])
                if padded { output.append(UInt8(ascii: "=")) }
            default:
                break
            }
        }
    }

    /// The base64 form of `data` as text, with the choices of ``encode(_:into:padded:urlSafe:)``.
    package static func encode(_ data: some Collection<UInt8>, padded: Bool = true, urlSafe: Bool = false) -> String {
        var text: [UInt8] = []
        encode(Array(data), into: &text, padded: padded, urlSafe: urlSafe)
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes base64 text in either alphabet, padded or not.
    ///
    /// - Throws: ``CodecError/Code/invalidBase64`` naming the offending character and its index in
    ///   the text; the caller adds where the text was.
    package static func decode(_ text: String) throws(CodecError) -> [UInt8] {
        let characters = Array(text.utf8)
        var end = characters.count
        while end > 0, characters[end - 1] == UInt8(ascii: "=") {
            end -= 1
        }
        let padding = characters.count - end
        if padding > 0, padding > 2 || characters.count % 4 != 0 {
            throw CodecError(
                code: .invalidBase64,
                message: "base64 text of \(characters.count) characters ends in \(padding) '=', which is not "
                    + "the padding to a multiple of four"
            )
        }
        if end % 4 == 1 {
            throw CodecError(
                code: .invalidBase64,
                message: "base64 text of \(end) characters leaves one character over, which encodes no byte"
            )
        }
        var output: [UInt8] = []
        output.reserveCapacity(end / 4 * 3 + 2)
        var group: UInt32 = 0
        var filled = 0
        for index in 0..<end {
            guard let value = sextet(characters[index]) else {
                throw CodecError(
                    code: .invalidBase64,
                    message: "\(describe(characters, at: index)) at index \(index) is not a base64 character"
                )
            }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 2:
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return output
    }

    /// The 6-bit value of a character of the standard or URL-safe alphabet.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }

    private static func describe(_ characters: [UInt8], at index: Int) -> String {
        let byte = characters[index]
        if byte >= 0x21 && byte <= 0x7E {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        if byte < 0x80 {
            return JSONParser.scalarName(UInt32(byte))
        }
        return "a non-ASCII character"
    }
}
