extension Timestamp: JSONCodableMessage {
    static var hasSpecialJSONForm: Bool { true }

    /// RFC 3339 text in UTC, e.g. `"2026-11-22T10:15:30.5Z"`.
    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        try w.timestamp(seconds: seconds, nanos: nanos)
    }

    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError) {
        w.name("value", "value")
        try writeJSON(&w)
    }

    init(json value: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self.init()
        (seconds, nanos) = try context.timestamp(value)
    }
}

extension ProtobufDuration: JSONCodableMessage {
    static var hasSpecialJSONForm: Bool { true }

    /// Seconds with an "s" suffix, e.g. `"1.5s"` or `"-0.000001s"`.
    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        try w.duration(seconds: seconds, nanos: nanos)
    }

    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError) {
        w.name("value", "value")
        try writeJSON(&w)
    }

    init(json value: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self.init()
        (seconds, nanos) = try context.duration(value)
    }
}

extension FieldMask: JSONCodableMessage {
    static var hasSpecialJSONForm: Bool { true }

    /// The paths in lowerCamelCase, joined by commas, e.g. `"tripStatus,pickupPoint.point"`.
    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        try w.fieldMask(paths: paths)
    }

    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError) {
        w.name("value", "value")
        try writeJSON(&w)
    }

    init(json value: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self.init()
        paths = try context.fieldMask(value)
    }
}

extension Empty: JSONCodableMessage {
    /// No members: Empty is `{}` like any message with no field set, and in an Any it has no
    /// `"value"`, as Google's printer and parser have it (it is not among the types with a JSON
    /// form of their own).
    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError) {}

    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        w.beginObject()
        w.endObject()
    }

    init(json value: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self.init()
        for member in try context.object(value, typeName: Self.protoMessageName)
        where !context.options.ignoringUnknownFields {
            throw context.unknownField(member, in: Self.protoMessageName)
        }
    }
}
