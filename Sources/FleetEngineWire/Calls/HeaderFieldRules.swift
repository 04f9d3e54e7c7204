import FleetEngineCodec

/// The rules gRPC and HTTP/2 set for header field names and values, shared by the request and
/// response sides of the call layer.
enum HeaderFieldRules {
    /// Whether `value` is a gRPC content type: `application/grpc`, alone or followed by `+` (a
    /// message format such as `+proto`) or `;` (parameters). gRPC PROTOCOL-HTTP2, "Requests":
    /// Content-Type → "content-type" "application/grpc" [("+proto" / "+json" / {custom})]. Media
    /// types are case-insensitive (RFC 9110 section 8.3.1).
    static func isGRPCContentType(_ value: String) -> Bool {
        // What every gRPC server sends; compared whole before the byte-by-byte reading.
        if value == "application/grpc" || value == "application/grpc+proto" { return true }
        let prefix = "application/grpc".utf8
        var bytes = value.utf8[...]
        for expected in prefix {
            // Only letters fold: with the case bit set, '/' (0x2F) would also match 0x0F.
            guard let byte = bytes.popFirst(),
                byte == expected || (expected >= UInt8(ascii: "a") && byte | 0x20 == expected)
            else { return false }
        }
        guard let next = bytes.first else { return true }
        return next == UInt8(ascii: "+") || next == UInt8(ascii: ";")
    }

    /// Names a client may not send as custom metadata, because the call layer writes them itself
    /// (gRPC PROTOCOL-HTTP2, "Requests", Call-Definition) or HTTP/2 forbids them (RFC 9113 section
    /// 8.2.2, connection-specific fields). Every `grpc-` name is reserved too (checked apart).
    static let reservedNames: Set<String> = connectionSpecificNames.union(["te", "content-type", "user-agent"])

    /// The connection-specific fields RFC 9113 section 8.2.2 forbids in HTTP/2: a message that
    /// carries one is malformed.
    static let connectionSpecificNames: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ]

    /// Whether `name` is one of ``connectionSpecificNames``. Every field of every response is
    /// checked: the name's length rules out almost all of them before the name is hashed.
    static func isConnectionSpecific(_ name: String) -> Bool {
        let count = name.utf8.count
        return count < 64 && connectionSpecificNameLengths & (1 << count) != 0 && connectionSpecificNames.contains(name)
    }

    /// A bit for each length of a name in ``connectionSpecificNames`` (all under 64 bytes).
    private static let connectionSpecificNameLengths: UInt64 = connectionSpecificNames.reduce(0) {
        $0 | 1 << $1.utf8.count
    }

    /// Why `name` may not be sent as custom metadata, or nil when it may; the caller builds the
    /// error, so that it records the caller's location.
    static func metadataNameProblem(_ name: String) -> (code: WireError.Code, reason: String)? {
        if name.utf8.first == UInt8(ascii: ":") {
            return (.reservedMetadata, "is a pseudo-header, which only the call layer writes")
        }
        if reservedNames.contains(name) {
            return (.reservedMetadata, "is written by the call layer or not allowed in HTTP/2 (RFC 9113 section 8.2.2)")
        }
        if name.utf8.starts(with: "grpc-".utf8) {
            return (
                .reservedMetadata, "starts with 'grpc-', which gRPC reserves for itself (PROTOCOL-HTTP2, \"Requests\")"
            )
        }
        guard !name.isEmpty else { return (.invalidMetadata, "is empty") }
        let invalid = firstOffset(in: name) { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                false
            default:
                true
            }
        }
        if let invalid {
            let byte = Array(name.utf8)[invalid]
            return (
                .invalidMetadata,
                "has \(describe(byte)) at byte \(invalid); a gRPC header name is 0-9 a-z _ - . only"
            )
        }
        return nil
    }

    /// Why `value` may not be sent under `name`, or nil when it may.
    ///
    /// A `-bin` value must be base64 in the standard alphabet (gRPC servers decode no other);
    /// any other must be printable ASCII (gRPC PROTOCOL-HTTP2, ASCII-Value) without whitespace at
    /// either end (RFC 9113 section 8.2.1).
    static func metadataValueProblem(_ value: String, name: String) -> String? {
        if isBinaryName(name) {
            if let offset = firstOffset(in: value, where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) {
                return "has \(describe(Array(value.utf8)[offset])) at byte \(offset): a -bin value is sent in "
                    + "base64's standard alphabet (+ and /), the only one gRPC servers decode"
            }
            do throws(CodecError) {
                _ = try Base64.decode(value)
                return nil
            } catch {
                return "is not base64, as a -bin value must be: \(error.message)"
            }
        }
        return textProblem(value, allowSpaces: true)
    }

    /// Why `value` is not printable ASCII without whitespace at either end, or nil when it is.
    static func textProblem(_ value: String, allowSpaces: Bool) -> String? {
        let bytes = value.utf8
        let lowest: UInt8 = allowSpaces ? 0x20 : 0x21
        if let invalid = firstOffset(in: value, where: { $0 < lowest || $0 > 0x7E }) {
            let byte = Array(bytes)[invalid]
            return "has \(describe(byte)) at byte \(invalid); only printable ASCII is allowed"
        }
        if bytes.first == 0x20 || bytes.last == 0x20 {
            return "starts or ends with a space (RFC 9113 section 8.2.1)"
        }
        return nil
    }

    /// Whether `name` ends in `-bin`: its values are base64 of binary data (PROTOCOL-HTTP2,
    /// "Requests", Binary-Header). Compared as bytes, which is all a header name is.
    static func isBinaryName(_ name: String) -> Bool {
        name.utf8.count >= 4 && name.utf8.suffix(4).elementsEqual("-bin".utf8)
    }

    /// The offset of the first byte of `text` that `isFound` picks, or nil when none does.
    ///
    /// Reads the string's contiguous UTF-8 where it has it (every native string), so a long value
    /// such as a bearer token costs a plain loop over its bytes.
    static func firstOffset(in text: String, where isFound: (UInt8) -> Bool) -> Int? {
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.firstIndex(where: isFound) }) {
            return found
        }
        var offset = 0
        for byte in text.utf8 {
            if isFound(byte) { return offset }
            offset += 1
        }
        return nil
    }

    /// A byte, named for an error message.
    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16)
    }
}
