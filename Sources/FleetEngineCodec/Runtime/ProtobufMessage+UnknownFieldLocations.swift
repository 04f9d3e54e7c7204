extension ProtobufMessage {
    /// Where `bytes`, read as this type's binary form, hold fields its schema does not define, at
    /// any depth, in input order; empty when there are none.
    ///
    /// A decoded message keeps such fields (``unknownFields``, on each message that held them) and
    /// binary encoding writes them back, but proto3 JSON has no place for them: this is what a
    /// JSON form of the message leaves out, for a tool that must not leave it out without a word.
    /// The decoded message's ``containsUnknownFields`` says, without reading the input again,
    /// whether there is anything to find.
    ///
    /// Only the input's structure is read (tags, lengths, groups and nesting within
    /// `options.maxNestingDepth`), so input that ``init(serializedBytes:options:)`` accepts never
    /// fails here.
    ///
    /// - Throws: ``CodecError`` locating a structural fault; ``CodecError/Code/unknownMessageType``
    ///   for a type that is not one of the codec's own (it has no schema to compare with).
    public static func unknownFieldLocations(
        in bytes: some Collection<UInt8>, options: DecodingOptions = DecodingOptions()
    ) throws(CodecError) -> [UnknownFieldLocation] {
        guard let type = Self.self as? any CBackedMessage.Type else {
            throw CodecError(
                code: .unknownMessageType, message: "the codec has no schema for \(Self.protoMessageName)")
        }
        let schema = type.wireSchema
        return try BinaryDecoding.withContiguousBytes(bytes) { (buffer) throws(CodecError) in
            try WireScanner(bytes: buffer, options: options).unknownFields(schema)
        }
    }
}
