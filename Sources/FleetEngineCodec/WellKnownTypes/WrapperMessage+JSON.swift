/// The wrapper types (`google.protobuf.Int32Value` and kin): in JSON, just the wrapped value.
protocol WrapperMessage: JSONCodableMessage {
    associatedtype Value
    var value: Value { get set }
    static func writeValue(_ value: Value, to w: inout JSONWriter)
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> Value
}

extension WrapperMessage {
    static var hasSpecialJSONForm: Bool { true }

    func writeJSON(_ w: inout JSONWriter) throws(CodecError) {
        Self.writeValue(value, to: &w)
    }

    func writeJSONMembers(_ w: inout JSONWriter) throws(CodecError) {
        w.name("value", "value")
        Self.writeValue(value, to: &w)
    }

    init(json: JSONValue, context: inout JSONReadContext) throws(CodecError) {
        self.init()
        value = try Self.readValue(json, context: context)
    }
}

extension DoubleValue: WrapperMessage {
    static func writeValue(_ value: Double, to w: inout JSONWriter) { w.double(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> Double {
        try context.double(json)
    }
}

extension FloatValue: WrapperMessage {
    static func writeValue(_ value: Float, to w: inout JSONWriter) { w.float(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> Float {
        try context.float(json)
    }
}

extension Int64Value: WrapperMessage {
    static func writeValue(_ value: Int64, to w: inout JSONWriter) { w.int64(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> Int64 {
        try context.int64(json)
    }
}

extension UInt64Value: WrapperMessage {
    static func writeValue(_ value: UInt64, to w: inout JSONWriter) { w.uint64(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> UInt64 {
        try context.uint64(json)
    }
}

extension Int32Value: WrapperMessage {
    static func writeValue(_ value: Int32, to w: inout JSONWriter) { w.int32(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> Int32 {
        try context.int32(json)
    }
}

extension UInt32Value: WrapperMessage {
    static func writeValue(_ value: UInt32, to w: inout JSONWriter) { w.uint32(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> UInt32 {
        try context.uint32(json)
    }
}

extension BoolValue: WrapperMessage {
    static func writeValue(_ value: Bool, to w: inout JSONWriter) { w.bool(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> Bool {
        try context.bool(json)
    }
}

extension StringValue: WrapperMessage {
    static func writeValue(_ value: String, to w: inout JSONWriter) { w.string(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> String {
        try context.string(json)
    }
}

extension BytesValue: WrapperMessage {
    static func writeValue(_ value: [UInt8], to w: inout JSONWriter) { w.bytes(value) }
    static func readValue(_ json: JSONValue, context: JSONReadContext) throws(CodecError) -> [UInt8] {
        try context.bytes(json)
    }
}
