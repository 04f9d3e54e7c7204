/// Swift values to proto3 JSON text.
enum JSONEncoding {
    static func encode<M: JSONCodableMessage>(_ message: M, options: JSONEncodingOptions) throws(CodecError) -> [UInt8] {
        var writer = JSONWriter(options: options)
        try message.writeJSON(&writer)
        return writer.bytes
    }
}

/// proto3 JSON text to Swift values.
enum JSONDecoding {
    static func decode<M: JSONCodableMessage>(
        _ type: M.Type,
        from bytes: some Collection<UInt8>,
        options: JSONDecodingOptions
    ) throws(CodecError) -> M {
        let value = try JSONParser.parse(bytes, maxNestingDepth: options.maxNestingDepth)
        var context = JSONReadContext(options: options)
        context.enter(M.protoMessageName)
        return try M(json: value, context: &context)
    }
}

/// Which fields of a message a JSON object has set so far, to refuse the same field twice
/// (e.g. once as `tripStatus` and once as `trip_status`), as Google's parser does.
struct JSONFieldSet {
    private var seen: [Bool]

    init(count: Int) {
        seen = Array(repeating: false, count: count)
    }

    mutating func insert(_ index: Int, _ member: JSONMember, context: JSONReadContext) throws(CodecError) {
        guard !seen[index] else {
            throw context.error(
                .invalidJSONValue, "field \"\(member.key)\" is set more than once (by two of its names)",
                at: member.value)
        }
        seen[index] = true
    }
}

extension JSONReadContext {
    func unknownField(_ member: JSONMember, in messageName: String) -> CodecError {
        error(.unknownJSONField, "\(messageName) has no field named \"\(member.key)\"", at: member.value)
    }

    /// Elements of repeated fields may not be null (Google's parser refuses them).
    func rejectNull(_ value: JSONValue) throws(CodecError) {
        if isNull(value) {
            throw error(.invalidJSONValue, "null is not allowed as an element of a repeated field", at: value)
        }
    }
}
