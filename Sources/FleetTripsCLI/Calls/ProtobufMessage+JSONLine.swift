import FleetEngineCodec
import FleetTripsInput

extension ProtobufMessage {
    /// The message as proto3 JSON on one line, followed by a line feed: what the client commands
    /// print for each message they received.
    ///
    /// - Throws: ``FleetTripsError/Code/invalidMessage`` when the codec cannot print the message
    ///   (a value proto3 JSON has no form for), with the codec's reason as the cause.
    func jsonLine() throws(FleetTripsError) -> [UInt8] {
        do throws(CodecError) {
            return try jsonUTF8Bytes() + [UInt8(ascii: "\n")]
        } catch {
            throw FleetTripsError(
                code: .invalidMessage, message: "the \(Self.protoMessageName) received has no JSON form", cause: error)
        }
    }

    /// Writes ``jsonLine()`` to `output`, then, when the message holds fields its schema does not
    /// define, the note `fleettrips decode` writes for them to `notices`: proto3 JSON has no place
    /// for them, and leaving them out must not be silent.
    ///
    /// - Parameter context: the message, in words: `the trip providers/p/trips/t GetTrip returned`.
    func writeJSONLine(
        to output: inout some ByteSink, notices: inout some ByteSink, context: @autoclosure () -> String
    ) throws(FleetTripsError) {
        try output.write(try jsonLine())
        if let notice = unknownFieldsNotice(context: context()) { try notices.write(notice) }
    }

    /// The note `fleettrips decode` writes for a message whose JSON leaves fields out, for a
    /// message a command received; nil when it holds no field its schema does not define.
    ///
    /// The codec keeps such fields (on each message that held them) and writes them back when the
    /// message is encoded: they are found in that encoding, named by message and field number, but
    /// not by byte offset, as the encoding puts them after the known fields, where the bytes that
    /// came need not have had them.
    func unknownFieldsNotice(context: String) -> [UInt8]? {
        // Encoding and scanning a whole trip again costs more than decoding it did; the message
        // itself says whether there is anything to find, and nearly always there is not.
        guard containsUnknownFields else { return nil }
        // The codec's own encoding of one of its own types always scans.
        guard let unknown = try? Self.unknownFieldLocations(in: serializedBytes()), !unknown.isEmpty else {
            return nil
        }
        return Array(MessageDecoder.notice(unknown, context: context, type: Self.protoMessageName, offsets: false).utf8)
    }
}
