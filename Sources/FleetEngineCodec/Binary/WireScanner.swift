/// Checks protobuf binary input the way Google's parsers do, says where a fault is, and rewrites
/// the input that is valid protobuf but that protobuf-c cannot unpack.
///
/// protobuf-c's unpack only returns NULL on failure, so the decoder runs this scanner when that
/// happens (and when a conversion check fails) to find the fault: its byte offset, field number and
/// field path. The scanner also finds valid input that protobuf-c refuses:
/// - unknown groups (wire types 3 and 4), which protobuf-c does not support at all;
/// - a known field arriving with another wire type, which Google's parsers keep as an unknown field.
/// For those, ``rewrite(_:)`` wraps each such field, whole, in a length-delimited field numbered
/// ``wrapperFieldNumber``; protobuf-c keeps that as an ordinary unknown field, and
/// ``CDecodeContext`` unwraps it back into the original bytes. A field that really has that number
/// is wrapped too, so unwrapping is never ambiguous.
///
/// A singular message field that arrives more than once must be merged; protobuf-c's merge loses
/// the earlier occurrences' unknown fields. The rewrite writes such a field once, its payload the
/// concatenation of every occurrence's (rewritten) payload: parsing a concatenation is how protobuf
/// defines merging.
struct WireScanner {
    /// The largest field number protobuf allows (2^29 - 1).
    static let maxFieldNumber: UInt32 = (1 << 29) - 1
    /// The field number that carries wrapped fields through protobuf-c (see the type's description).
    static let wrapperFieldNumber: UInt32 = maxFieldNumber

    let bytes: UnsafeBufferPointer<UInt8>
    let options: DecodingOptions

    /// Checks the whole input as a `schema` message.
    ///
    /// - Returns: whether the input must be rewritten before protobuf-c can unpack it.
    /// - Throws: the first fault, located.
    func check(_ schema: WireSchema) throws(CodecError) -> Bool {
        try check(schema, 0..<bytes.count, path: schema.messageName, depth: 0)
    }

    /// The input with every field protobuf-c cannot take wrapped (see the type's description).
    /// Call only after ``check(_:)`` succeeded.
    func rewrite(_ schema: WireSchema) throws(CodecError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        try rewrite(schema, 0..<bytes.count, into: &output)
        return output
    }

    // MARK: Checking

    private func check(_ schema: WireSchema, _ range: Range<Int>, path: String, depth: Int) throws(CodecError) -> Bool {
        guard depth <= options.maxNestingDepth else { throw nestingTooDeep(at: range.lowerBound, path: path) }
        var needsRewrite = false
        var position = range.lowerBound
        var occurrences: [Int: Int] = [:]
        // The string keys each map field has taken so far, by field number (see ``checkMapKey``).
        var mapKeys: [Int: [String: String]] = [:]
        while position < range.upperBound {
            let tagOffset = position
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: path)
            if wireType == .endGroup { throw Self.unopenedGroupEnd(number, at: tagOffset, path: path) }
            if number == Int(Self.wrapperFieldNumber) { needsRewrite = true }
            guard let field = schema.field(number: number) else {
                if wireType == .startGroup { needsRewrite = true }
                try skipValue(
                    wireType, number: number, at: &position, limit: range.upperBound, path: path, depth: depth)
                continue
            }
            guard field.accepts(wireType) else {
                // Google's parsers keep such a field as unknown; protobuf-c refuses it.
                needsRewrite = true
                try skipValue(
                    wireType, number: number, at: &position, limit: range.upperBound, path: path, depth: depth)
                continue
            }
            // Counted after the wire type check: a field kept as unknown is no element of the list,
            // so a path's index is the element's index in the decoded value.
            let index = occurrences[number, default: 0]
            occurrences[number] = index + 1
            if index > 0, !field.isRepeated, case .message = field.kind { needsRewrite = true }
            let fieldPath = path + "." + field.name + (field.isRepeated ? "[\(index)]" : "")
            guard wireType == .lengthDelimited else {
                try skipValue(
                    wireType, number: number, at: &position, limit: range.upperBound, path: path, depth: depth)
                continue
            }
            let body = try readLength(at: &position, limit: range.upperBound, number: number, path: fieldPath)
            switch field.kind {
            case .string:
                try checkUTF8(body, number: number, path: fieldPath)
            case .message(let nested):
                let nestedSchema = nested()
                if try check(nestedSchema, body, path: fieldPath, depth: depth + 1) { needsRewrite = true }
                if nestedSchema.isMapEntry {
                    if try isPlainMapEntry(nestedSchema, body) {
                        try checkMapKey(
                            nestedSchema, body, seen: &mapKeys[number, default: [:]], mapField: field.name,
                            path: fieldPath)
                    } else {
                        // Kept whole as an unknown field (see rewrite), so its key joins no map.
                        needsRewrite = true
                    }
                }
            case .bytes:
                break
            case .varint, .fixed32, .fixed64:
                try checkPacked(field.kind, body, number: number, path: fieldPath)
            }
            position = body.upperBound
        }
        return needsRewrite
    }

    /// A message nested deeper than the options allow, found at `offset` inside `path`.
    func nestingTooDeep(at offset: Int, path: String) -> CodecError {
        CodecError(
            code: .nestingTooDeep,
            message: "messages nest deeper than \(options.maxNestingDepth) levels",
            byteOffset: offset,
            fieldPath: path
        )
    }

    /// An end-group tag for field `number` at `offset` with no group open.
    static func unopenedGroupEnd(_ number: Int, at offset: Int, path: String?) -> CodecError {
        CodecError(
            code: .unmatchedEndGroup,
            message: "end-group tag for field \(number) with no group open",
            byteOffset: offset,
            fieldNumber: number,
            fieldPath: path
        )
    }

    func readTag(at position: inout Int, limit: Int, path: String) throws(CodecError) -> (Int, WireType) {
        let offset = position
        let tag = try readVarint(at: &position, limit: limit, what: "tag", number: nil, path: path)
        // A tag is a 32-bit varint: Google's parsers refuse one written in more than 5 bytes.
        guard position - offset <= 5 else {
            throw CodecError(
                code: .malformedVarint,
                message: "tag is written in \(position - offset) bytes; a tag takes at most 5",
                byteOffset: offset,
                fieldPath: path
            )
        }
        let number = tag >> 3
        guard number >= 1, number <= UInt64(Self.maxFieldNumber) else {
            throw CodecError(
                code: .invalidFieldNumber,
                message: "tag names field \(number), outside 1...\(Self.maxFieldNumber)",
                byteOffset: offset,
                fieldPath: path
            )
        }
        guard let wireType = WireType(rawValue: UInt8(tag & 7)) else {
            throw CodecError(
                code: .invalidWireType,
                message: "field \(number) has wire type \(tag & 7), which protobuf does not define",
                byteOffset: offset,
                fieldNumber: Int(number),
                fieldPath: path
            )
        }
        return (Int(number), wireType)
    }

    private func readVarint(
        at position: inout Int,
        limit: Int,
        what: String,
        number: Int?,
        path: String
    ) throws(CodecError) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        for index in 0..<10 {
            guard position < limit else {
                throw CodecError(
                    code: .truncated,
                    message: "input ends inside a varint (\(what))",
                    byteOffset: start,
                    fieldNumber: number,
                    fieldPath: path
                )
            }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7f) << UInt64(7 * index)
            if byte < 0x80 { return value }
        }
        throw CodecError(
            code: .malformedVarint,
            message: "varint (\(what)) runs past 10 bytes",
            byteOffset: start,
            fieldNumber: number,
            fieldPath: path
        )
    }

    func readLength(
        at position: inout Int,
        limit: Int,
        number: Int,
        path: String
    ) throws(CodecError) -> Range<Int> {
        let offset = position
        let length = try readVarint(at: &position, limit: limit, what: "length", number: number, path: path)
        // upb and protobuf-c read a length as a 32-bit size: at most 5 bytes, and below 2^31.
        guard position - offset <= 5 else {
            throw CodecError(
                code: .malformedVarint,
                message:
                    "the length of field \(number) is written in \(position - offset) bytes; a length takes at most 5",
                byteOffset: offset,
                fieldNumber: number,
                fieldPath: path
            )
        }
        guard length < 1 << 31 else {
            throw CodecError(
                code: .lengthPastEnd,
                message: "field \(number) claims \(length) bytes; a length must be below 2^31",
                byteOffset: offset,
                fieldNumber: number,
                fieldPath: path
            )
        }
        guard length <= UInt64(limit - position) else {
            throw CodecError(
                code: .lengthPastEnd,
                message: "field \(number) claims \(length) bytes but only \(limit - position) remain",
                byteOffset: offset,
                fieldNumber: number,
                fieldPath: path
            )
        }
        return position..<(position + Int(length))
    }

    func skipValue(
        _ wireType: WireType,
        number: Int,
        at position: inout Int,
        limit: Int,
        path: String,
        depth: Int
    ) throws(CodecError) {
        let offset = position
        switch wireType {
        case .varint:
            _ = try readVarint(at: &position, limit: limit, what: "field \(number)", number: number, path: path)
        case .fixed64, .fixed32:
            let size = wireType == .fixed64 ? 8 : 4
            guard limit - position >= size else {
                throw CodecError(
                    code: .truncated,
                    message: "field \(number) needs \(size) bytes but only \(limit - position) remain",
                    byteOffset: offset,
                    fieldNumber: number,
                    fieldPath: path
                )
            }
            position += size
        case .lengthDelimited:
            position = try readLength(at: &position, limit: limit, number: number, path: path).upperBound
        case .startGroup:
            try skipGroup(number: number, at: &position, limit: limit, path: path, depth: depth + 1)
        case .endGroup:
            // Callers handle end-group tags before asking to skip a value.
            break
        }
    }

    private func skipGroup(number: Int, at position: inout Int, limit: Int, path: String, depth: Int) throws(CodecError)
    {
        let start = position
        guard depth <= options.maxNestingDepth else {
            throw CodecError(
                code: .nestingTooDeep,
                message: "groups nest deeper than \(options.maxNestingDepth) levels",
                byteOffset: start,
                fieldNumber: number,
                fieldPath: path
            )
        }
        while position < limit {
            let tagOffset = position
            let (inner, wireType) = try readTag(at: &position, limit: limit, path: path)
            if wireType == .endGroup {
                guard inner == number else {
                    throw CodecError(
                        code: .unmatchedEndGroup,
                        message: "group of field \(number) closed by an end-group tag for field \(inner)",
                        byteOffset: tagOffset,
                        fieldNumber: inner,
                        fieldPath: path
                    )
                }
                return
            }
            try skipValue(wireType, number: inner, at: &position, limit: limit, path: path, depth: depth)
        }
        throw CodecError(
            code: .truncated,
            message: "group of field \(number) is never closed",
            byteOffset: start,
            fieldNumber: number,
            fieldPath: path
        )
    }

    private func checkPacked(_ kind: WireSchema.Kind, _ body: Range<Int>, number: Int, path: String) throws(CodecError)
    {
        switch kind {
        case .fixed32, .fixed64:
            let size = kind.wireType == .fixed64 ? 8 : 4
            guard body.count % size == 0 else {
                throw CodecError(
                    code: .truncated,
                    message: "packed field \(number) is \(body.count) bytes, not a multiple of \(size)",
                    byteOffset: body.lowerBound,
                    fieldNumber: number,
                    fieldPath: path
                )
            }
        default:
            var position = body.lowerBound
            while position < body.upperBound {
                _ = try readVarint(
                    at: &position, limit: body.upperBound, what: "packed element", number: number, path: path)
            }
        }
    }

    private func checkUTF8(_ body: Range<Int>, number: Int, path: String) throws(CodecError) {
        if let bad = UTF8Validation.firstInvalidByte(in: UnsafeBufferPointer(rebasing: bytes[body])) {
            throw CodecError(
                code: .invalidUTF8,
                message: "string field \(number) is not valid UTF-8",
                byteOffset: body.lowerBound + bad,
                fieldNumber: number,
                fieldPath: path
            )
        }
    }

    /// Refuses a map entry whose string key is canonically equivalent to, but not the same code points
    /// as, a key the map already took (see ``StringMapKeys``): the conversion refuses it too, and
    /// this locates it. The entry's key is its last key field, as protobuf reads it; its UTF-8 was
    /// checked already.
    private func checkMapKey(
        _ entry: WireSchema,
        _ range: Range<Int>,
        seen: inout [String: String],
        mapField: String,
        path: String
    ) throws(CodecError) {
        guard let keyField = entry.field(number: 1), case .string = keyField.kind else { return }
        var keyBytes: Range<Int>?
        var position = range.lowerBound
        while position < range.upperBound {
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: path)
            if number == 1, wireType == .lengthDelimited {
                let value = try readLength(at: &position, limit: range.upperBound, number: number, path: path)
                keyBytes = value
                position = value.upperBound
            } else {
                try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: path, depth: 0)
            }
        }
        guard let keyBytes else { return }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[keyBytes]), as: UTF8.self)
        if let existing = seen[key], !existing.unicodeScalars.elementsEqual(key.unicodeScalars) {
            throw CodecError(
                code: .canonicallyEquivalentMapKeys,
                message: StringMapKeys.conflict(field: mapField, existing: existing, key: key),
                byteOffset: keyBytes.lowerBound,
                fieldNumber: 1,
                fieldPath: path + "." + keyField.name
            )
        }
        seen[key] = key
    }

    // MARK: Rewriting

    private func rewrite(_ schema: WireSchema, _ range: Range<Int>, into output: inout [UInt8]) throws(CodecError) {
        let merged = try singularMessageBodies(schema, range)
        var written = Set<Int>()
        var position = range.lowerBound
        while position < range.upperBound {
            let start = position
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: schema.messageName)
            let tagEnd = position
            let field = schema.field(number: number)
            var fits = false
            if let field, number != Int(Self.wrapperFieldNumber) { fits = field.accepts(wireType) }
            if fits, let field, case .message(let nested) = field.kind, nested().isMapEntry {
                // An entry with anything but its key and value stays whole, as an unknown field.
                let body = try readLength(at: &position, limit: range.upperBound, number: number, path: "")
                position = body.upperBound
                if try isPlainMapEntry(nested(), body) {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
                } else {
                    // Kept as Google keeps it: the entry read as a message and written back.
                    var entry = Array(UnsafeBufferPointer(rebasing: bytes[start..<tagEnd]))
                    let normalized = try normalizedMapEntry(nested(), body)
                    WireReading.appendVarint(UInt64(normalized.count), to: &entry)
                    entry.append(contentsOf: normalized)
                    WireReading.appendVarint(UInt64(Self.wrapperFieldNumber) << 3 | 2, to: &output)
                    WireReading.appendVarint(UInt64(entry.count), to: &output)
                    output.append(contentsOf: entry)
                }
                continue
            }
            if fits, let field, case .message(let nested) = field.kind {
                let body = try readLength(at: &position, limit: range.upperBound, number: number, path: "")
                position = body.upperBound
                // A singular field is written once, where it first came, with every occurrence merged in.
                let bodies = field.isRepeated ? [body] : merged[number] ?? [body]
                if !field.isRepeated {
                    guard written.insert(number).inserted else { continue }
                }
                var inner: [UInt8] = []
                if bodies.count == 1 {
                    try rewrite(nested(), body, into: &inner)
                } else {
                    // The merged message may repeat its own singular fields (each occurrence had
                    // one), so the concatenation is rewritten as one message, merging all the way down.
                    var concatenated: [UInt8] = []
                    for part in bodies {
                        concatenated.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[part]))
                    }
                    inner = try concatenated.withUnsafeBufferPointer { (buffer) throws(CodecError) in
                        try WireScanner(bytes: buffer, options: options).rewrite(nested())
                    }
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<tagEnd]))
                WireReading.appendVarint(UInt64(inner.count), to: &output)
                output.append(contentsOf: inner)
                continue
            }
            try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: "", depth: 0)
            let whole = UnsafeBufferPointer(rebasing: bytes[start..<position])
            if fits || (field == nil && wireType != .startGroup && number != Int(Self.wrapperFieldNumber)) {
                output.append(contentsOf: whole)
            } else {
                WireReading.appendVarint(UInt64(Self.wrapperFieldNumber) << 3 | 2, to: &output)
                WireReading.appendVarint(UInt64(whole.count), to: &output)
                output.append(contentsOf: whole)
            }
        }
    }

    /// Whether a map entry holds only its key and value fields, with their own wire types.
    func isPlainMapEntry(_ entry: WireSchema, _ range: Range<Int>) throws(CodecError) -> Bool {
        var position = range.lowerBound
        while position < range.upperBound {
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: entry.messageName)
            guard let field = entry.field(number: number), field.kind.wireType == wireType else { return false }
            try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: "", depth: 0)
        }
        return true
    }

    /// A map entry as Google's parsers write back one that held more than its key and value: the key
    /// and the value (the last of each, when not empty), then every other field as it came.
    private func normalizedMapEntry(_ entry: WireSchema, _ range: Range<Int>) throws(CodecError) -> [UInt8] {
        var known: [Int: Range<Int>] = [:]
        var others: [UInt8] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let start = position
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: entry.messageName)
            if let field = entry.field(number: number), field.kind.wireType == wireType, wireType == .lengthDelimited {
                let value = try readLength(at: &position, limit: range.upperBound, number: number, path: "")
                known[number] = value
                position = value.upperBound
            } else {
                try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: "", depth: 0)
                others.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
            }
        }
        var output: [UInt8] = []
        for number in [1, 2] {
            guard let value = known[number], !value.isEmpty else { continue }
            WireReading.appendVarint(UInt64(number) << 3 | 2, to: &output)
            WireReading.appendVarint(UInt64(value.count), to: &output)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[value]))
        }
        return output + others
    }

    /// The payloads of every occurrence of each singular message field, in arrival order.
    private func singularMessageBodies(_ schema: WireSchema, _ range: Range<Int>) throws(CodecError) -> [Int: [Range<
        Int
    >]] {
        var bodies: [Int: [Range<Int>]] = [:]
        var position = range.lowerBound
        while position < range.upperBound {
            let (number, wireType) = try readTag(at: &position, limit: range.upperBound, path: schema.messageName)
            if let field = schema.field(number: number), !field.isRepeated, case .message = field.kind,
                wireType == .lengthDelimited, number != Int(Self.wrapperFieldNumber)
            {
                let body = try readLength(at: &position, limit: range.upperBound, number: number, path: "")
                bodies[number, default: []].append(body)
                position = body.upperBound
            } else {
                try skipValue(wireType, number: number, at: &position, limit: range.upperBound, path: "", depth: 0)
            }
        }
        return bodies
    }
}
