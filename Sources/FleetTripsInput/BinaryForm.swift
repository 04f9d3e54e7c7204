import FleetEngineCodec

/// How protobuf binary appears on the command line's input or output: as raw bytes, or as base64
/// or hex text for pasting into and out of terminals, logs and JSON documents.
package enum BinaryForm: String, CaseIterable, Sendable {
    /// The bytes themselves.
    case raw
    /// Base64 text (RFC 4648).
    case base64
    /// Hexadecimal text, two digits per byte.
    case hex

    /// The bytes that `input`, in this form, stands for.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` for text that is not valid base64 or hex.
    package func bytes(from input: [UInt8]) throws(FleetTripsError) -> [UInt8] {
        guard self != .raw else { return input }
        var reader = BinaryTextReader(form: self)
        var output: [UInt8] = []
        try reader.decode(input[...], into: &output)
        try reader.finish(into: &output)
        return output
    }

    /// `bytes` written in this form; text forms end with a line feed so a terminal shows them
    /// on a line of their own.
    package func output(for bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .raw: bytes
        case .base64: Array((Base64.encode(bytes) + "\n").utf8)
        case .hex: HexText.encode(bytes) + [UInt8(ascii: "\n")]
        }
    }
}
