/// Swift values to proto3 JSON text.
enum JSONEncoding {
    static func encode<M: JSONCodableMessage>(_ message: M, options: JSONEncodingOptions) throws(CodecError) -> [UInt8]
    {
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
