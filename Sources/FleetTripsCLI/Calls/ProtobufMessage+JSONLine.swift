import FleetEngineCodec

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
}
