extension AnyMessage: JSONCodableMessage {
    static var hasSpecialJSONForm: Bool { true }

    /// The full name of the packed type: what follows the last "/" of the type URL.
    var packedTypeName: Substring {
        typeURL.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    }

    /// `{"@type": URL, ...the packed message's members}`, or for well-known types with a JSON
    /// form of their own (an Any among them) `{"@type": URL, "value": ...}` (the proto3 JSON
    /// mapping of Any, as Google's printer writes it).
    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        w.beginObject()
        try writeJSONMembers(&w)
        w.endObject()
    }

    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError) {
        // An Any with nothing set prints as {}, as Google's printer does.
        if typeURL.isEmpty && value.isEmpty { return }
        guard let type = MessageRegistry.codecTypes[String(packedTypeName)] else {
            throw CodecError(
                code: .unknownTypeURL,
                message: "google.protobuf.Any holds \"\(typeURL)\", a type this codec does not know",
                fieldPath: Self.protoMessageName + ".type_url"
            )
        }
        w.name("@type", "@type")
        w.string(typeURL)
        try Self.writePacked(type, value, to: &w)
    }

    private static func writePacked<M: CodecMessage>(
        _ type: M.Type,
        _ bytes: [UInt8],
        to w: inout JSONWriter
    ) throws(CodecError) {
        guard w.packedDepth < JSONWriter.maxPackedDepth else {
            throw CodecError(
                code: .nestingTooDeep,
                message: "google.protobuf.Any values are nested more than \(JSONWriter.maxPackedDepth) deep",
                fieldPath: Self.protoMessageName + ".value")
        }
        w.packedDepth += 1
        defer { w.packedDepth -= 1 }
        let message = try M(serializedBytes: bytes)
        if let any = message as? AnyMessage {
            // An Any inside an Any is a value of its own: flattening it would repeat "@type".
            w.name("value", "value")
            try any.writeJSON(&w)
        } else {
            try message.writeJSONMembers(&w)
        }
    }

    init(json: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self.init()
        let members = try context.object(json, typeName: Self.protoMessageName)
        if members.isEmpty { return }
        guard let typeMember = members.first(where: { $0.key == "@type" }) else {
            throw context.error(.invalidJSONValue, "google.protobuf.Any needs an \"@type\" member", at: json)
        }
        typeURL = try context.string(typeMember.value)
        guard let type = MessageRegistry.codecTypes[String(packedTypeName)] else {
            throw context.error(
                .unknownTypeURL, "\"\(typeURL)\" is a type this codec does not know", at: typeMember.value)
        }
        let rest = members.filter { $0.key != "@type" }
        value = try Self.readPacked(type, rest, object: json, context: &context)
    }

    private static func readPacked<M: CodecMessage>(
        _ type: M.Type,
        _ members: [JSONMember],
        object: JSONValue,
        context: inout JSONReadContext
    ) throws(CodecError) -> [UInt8] {
        let message: M
        if M.hasSpecialJSONForm {
            guard let inner = members.first(where: { $0.key == "value" }) else {
                throw context.error(.invalidJSONValue, "\(M.protoMessageName) in an Any needs a \"value\"", at: object)
            }
            if let extra = members.first(where: { $0.key != "value" }), !context.options.ignoringUnknownFields {
                throw context.unknownField(extra, in: M.protoMessageName)
            }
            message = try M(json: inner.value, context: &context)
        } else {
            message = try M(json: JSONValue(.object(members), offset: object.offset), context: &context)
        }
        return message.serializedBytes()
    }
}
