/// The decoded-memory budget (``DecodingOptions/maxDecodedSize``) on the Swift side: every array,
/// string and message box the conversion builds is charged before it is allocated, against what
/// protobuf-c's arena left of the bound.
extension CDecodeContext {
    /// What Swift's heap takes for an array's header (its object header, count and capacity).
    static let arrayHeaderBytes = 32
    /// What a Swift string of more than 15 UTF-8 bytes adds to its bytes on the heap (object
    /// header, capacity and flags, and the NUL it keeps after them); shorter ones are stored inline.
    static let stringHeaderBytes = 32
    /// The longest string Swift stores inline, without a heap allocation.
    static let inlineStringBytes = 15

    /// The heap bytes an array of `count` values of `Element` takes.
    static func arrayBytes<Element>(of element: Element.Type, count: Int) -> Int {
        saturatingSum(saturatingProduct(MemoryLayout<Element>.stride, count), arrayHeaderBytes)
    }

    static func saturatingSum(_ lhs: Int, _ rhs: Int) -> Int {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        return overflow ? .max : sum
    }

    static func saturatingProduct(_ lhs: Int, _ rhs: Int) -> Int {
        let (product, overflow) = lhs.multipliedReportingOverflow(by: rhs)
        return overflow ? .max : product
    }

    /// The heap bytes a string or byte array copied from `length` bytes takes.
    static func textBytes(length: Int, inlineUpTo inlineLength: Int) -> Int {
        length <= inlineLength ? 0 : saturatingSum(length, stringHeaderBytes)
    }

    /// Takes `bytes` from the budget, or throws ``CodecError/Code/resourceExhausted`` naming the
    /// message being converted and, when it is the only one of its kind there, the field.
    mutating func charge(_ bytes: Int, for values: @autoclosure () -> String, field: (WireSchema.Field) -> Bool)
        throws(CodecError)
    {
        guard bytes > remainingBudget else {
            remainingBudget -= bytes
            return
        }
        let schema = currentMessage.wireSchema
        let candidates = schema.fields.filter(field)
        var path = schema.messageName
        if candidates.count == 1 { path += "." + candidates[0].name }
        throw CodecError(
            code: .resourceExhausted,
            message: "\(values()) in \(schema.messageName) need \(bytes) bytes, "
                + "past the decoded size limit of \(maxDecodedSize) bytes",
            fieldPath: path
        )
    }

    /// Charges an array of `count` messages of `M`, with the boxes of those whose fields live
    /// behind one reference.
    mutating func chargeMessages<M: CBackedMessage>(_ type: M.Type, count: Int) throws(CodecError) {
        let bytes = Self.saturatingSum(
            Self.arrayBytes(of: M.self, count: count), Self.saturatingProduct(M.storageBytes, count))
        let elementName = M.protoMessageName
        try charge(bytes, for: "\(count) \(elementName) values") { candidate in
            guard candidate.isRepeated, case .message(let schema) = candidate.kind else { return false }
            return schema().messageName == elementName
        }
    }

    /// Charges an array of `count` values of a repeated field of `kind` (strings, bytes or points).
    mutating func chargeRepeated<Element>(
        _ element: Element.Type, count: Int, name: String, kind: (WireSchema.Kind) -> Bool
    ) throws(CodecError) {
        try charge(Self.arrayBytes(of: Element.self, count: count), for: "\(count) \(name) values") {
            $0.isRepeated && kind($0.kind)
        }
    }
}
