import CFleetEngineProtos
import CProtobufC

/// State shared while an unpacked protoc-c message is copied into Swift values.
struct CDecodeContext {
    /// True when the input went through ``WireScanner/rewrite(_:)``: then unknown fields under
    /// ``WireScanner/wrapperFieldNumber`` hold the original bytes of a field protobuf-c could not take.
    let rewritten: Bool

    /// Set when a singular message field arrived more than once (protobuf-c hands over every
    /// occurrence: the field is repeated in the C rendering), or a map entry held more than its key and
    /// value. The decoder then lets the scanner rewrite the input: merge the occurrences, as protobuf
    /// defines merging, and keep such entries whole as unknown fields.
    var sawRepeatedOccurrences = false

    /// ``DecodingOptions/maxDecodedSize``, for the error that reports it.
    let maxDecodedSize: Int
    /// What the Swift values may still take: the bound less what protobuf-c's arena holds (it lives
    /// until the conversion ends) and what the conversion has charged so far.
    var remainingBudget: Int
    /// The message type whose fields are being converted, for the error's field path (a type, not
    /// its schema, so that keeping it up to date costs no reference counting).
    var currentMessage: any CBackedMessage.Type

    init(rewritten: Bool, maxDecodedSize: Int, remainingBudget: Int, message: any CBackedMessage.Type) {
        self.rewritten = rewritten
        self.maxDecodedSize = maxDecodedSize
        self.remainingBudget = remainingBudget
        self.currentMessage = message
    }

    mutating func string(_ data: ProtobufCBinaryData) throws(CodecError) -> String {
        if data.len == 0 { return "" }
        try charge(
            Self.textBytes(length: data.len, inlineUpTo: Self.inlineStringBytes),
            for: "a string of \(data.len) bytes"
        ) { !$0.isRepeated && $0.kind.isString }
        // protoc-c leaves UTF-8 unchecked; Google's parsers reject invalid UTF-8 in proto3 strings.
        // (String(validating:) would do both steps, but through a generic path that costs several
        // times more; on valid input String(decoding:) takes the standard library's fast path.)
        let bytes = UnsafeBufferPointer(start: data.data, count: data.len)
        guard UTF8Validation.firstInvalidByte(in: bytes) == nil else {
            throw CodecError(code: .invalidUTF8, message: "a string field holds bytes that are not UTF-8")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A map entry with unknown fields is kept whole as an unknown field of its message, as Google's
    /// parsers keep it; the scanner's rewrite does that, so the decoder is sent there.
    mutating func checkMapEntry(_ base: ProtobufCMessage) {
        if base.n_unknown_fields > 0 { sawRepeatedOccurrences = true }
    }

    /// Stores a `map<string, …>` entry, refusing a key canonically equivalent to, but not the same code
    /// points as, one already in the map (see ``StringMapKeys``). The error is unlocated: the decoder's
    /// ``WireScanner`` finds the same conflict and reports it with its byte offset and field path.
    func insert<Value>(
        _ value: Value,
        forKey key: String,
        into map: inout [String: Value],
        field: String
    ) throws(CodecError) {
        if let existing = StringMapKeys.equivalentKey(to: key, in: map) {
            throw CodecError(
                code: .canonicallyEquivalentMapKeys,
                message: StringMapKeys.conflict(field: field, existing: existing, key: key)
            )
        }
        map[key] = value
    }

    /// The one occurrence of a singular message field (rendered repeated for protobuf-c), noting when
    /// there were several.
    mutating func lastOccurrence<CMessage>(
        _ occurrences: UnsafeMutablePointer<UnsafeMutablePointer<CMessage>?>?,
        count: Int
    ) -> UnsafeMutablePointer<CMessage>? {
        guard count > 0, let occurrences else { return nil }
        if count > 1 { sawRepeatedOccurrences = true }
        return occurrences[count - 1]
    }

    /// The one occurrence of a singular field carried as bytes, noting when there were several.
    mutating func lastOccurrence(
        _ occurrences: UnsafeMutablePointer<ProtobufCBinaryData>?,
        count: Int
    ) -> ProtobufCBinaryData? {
        guard count > 0, let occurrences else { return nil }
        if count > 1 { sawRepeatedOccurrences = true }
        return occurrences[count - 1]
    }

    mutating func bytes(_ data: ProtobufCBinaryData) throws(CodecError) -> [UInt8] {
        if data.len == 0 { return [] }
        try charge(Self.textBytes(length: data.len, inlineUpTo: 0), for: "\(data.len) bytes") {
            !$0.isRepeated && $0.kind.isBytes
        }
        return Array(UnsafeBufferPointer(start: data.data, count: data.len))
    }

    mutating func messages<M: CBackedMessage>(
        _ elements: UnsafeMutablePointer<UnsafeMutablePointer<M.CMessage>?>?,
        count: Int
    ) throws(CodecError) -> [M] {
        guard count > 0, let elements else { return [] }
        try chargeMessages(M.self, count: count)
        let parent = currentMessage
        currentMessage = M.self
        defer { currentMessage = parent }
        var result: [M] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            if let element = elements[index] {
                result.append(try M(cMessage: element, context: &self))
            }
        }
        return result
    }

    mutating func strings(_ elements: UnsafeMutablePointer<ProtobufCBinaryData>?, count: Int) throws(CodecError)
        -> [String]
    {
        guard count > 0, let elements else { return [] }
        try chargeRepeated(String.self, count: count, name: "string") { $0.isString }
        var result: [String] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try string(elements[index]))
        }
        return result
    }

    mutating func byteArrays(_ elements: UnsafeMutablePointer<ProtobufCBinaryData>?, count: Int) throws(CodecError)
        -> [[UInt8]]
    {
        guard count > 0, let elements else { return [] }
        try chargeRepeated([UInt8].self, count: count, name: "bytes") { $0.isBytes }
        var result: [[UInt8]] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try bytes(elements[index]))
        }
        return result
    }

    /// The unknown fields protobuf-c kept: value bytes as they came, each tag in its shortest form
    /// (protobuf-c writes tags that way when packing, so a padded tag such as `88 00` for `08` could
    /// not be written back as it came in any case).
    mutating func unknownFields(_ base: ProtobufCMessage) throws(CodecError) -> UnknownFields {
        var fields = UnknownFields()
        guard let entries = base.unknown_fields else { return fields }
        // A value's bytes and at most a 5-byte tag each: the one array they all go into.
        var total = 0
        for index in 0..<Int(base.n_unknown_fields) {
            total = Self.saturatingSum(total, Self.saturatingSum(entries[index].len, 5))
        }
        try charge(
            Self.textBytes(length: total, inlineUpTo: 0), for: "unknown fields (\(base.n_unknown_fields))"
        ) { _ in false }
        fields.reserveCapacity(total)
        for index in 0..<Int(base.n_unknown_fields) {
            let entry = entries[index]
            // protobuf-c reads tags up to 2^32 - 1; protobuf allows field numbers up to 2^29 - 1.
            guard entry.tag >= 1, entry.tag <= WireScanner.maxFieldNumber else {
                throw CodecError(
                    code: .invalidFieldNumber,
                    message: "field number \(entry.tag) is outside 1...\(WireScanner.maxFieldNumber)",
                    fieldNumber: Int(entry.tag)
                )
            }
            let value = UnsafeBufferPointer(start: entry.data, count: entry.len)
            if rewritten, entry.tag == WireScanner.wrapperFieldNumber, entry.wire_type.rawValue == 2 {
                // The payload after the length prefix is the original field, tag and all.
                var position = 0
                _ = WireReading.varint(in: value, at: &position)
                fields.append(raw: UnsafeBufferPointer(rebasing: value[position...]))
            } else {
                let tag = UInt64(entry.tag) << 3 | UInt64(entry.wire_type.rawValue)
                fields.append(tag: tag, value: value)
            }
        }
        return fields
    }
}
