/// Turns input in one ``BinaryForm`` into bytes a piece at a time, so that a long input can stream
/// through in bounded memory.
package struct BinaryTextReader {
    private enum State {
        case raw
        case base64(Base64TextDecoder)
        case hex(HexTextDecoder)
    }

    private var state: State

    /// A reader of input in `form`.
    package init(form: BinaryForm) {
        switch form {
        case .raw: state = .raw
        case .base64: state = .base64(Base64TextDecoder())
        case .hex: state = .hex(HexTextDecoder())
        }
    }

    /// Appends the bytes that `piece`, the next part of the input, completes to `output`; when the
    /// piece holds a fault, the bytes before it are appended before the error is thrown.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` for text that is not valid base64 or
    ///   hex, with its offset in the whole input.
    package mutating func decode(_ piece: ArraySlice<UInt8>, into output: inout [UInt8]) throws(FleetTripsError) {
        switch state {
        case .raw:
            output.append(contentsOf: piece)
        case .base64(var decoder):
            output.reserveCapacity(output.count + piece.count / 4 * 3 + 3)
            defer { state = .base64(decoder) }
            try decoder.decode(piece, into: &output)
        case .hex(var decoder):
            output.reserveCapacity(output.count + piece.count / 2 + 1)
            defer { state = .hex(decoder) }
            try decoder.decode(piece, into: &output)
        }
    }

    /// Ends the input: appends the bytes of a last base64 group left without padding to `output`.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidInputText`` for text that ends in the middle of a
    ///   byte.
    package mutating func finish(into output: inout [UInt8]) throws(FleetTripsError) {
        switch state {
        case .raw:
            break
        case .base64(var decoder):
            defer { state = .base64(decoder) }
            try decoder.finish(into: &output)
        case .hex(let decoder):
            try decoder.finish()
        }
    }
}
