public import FleetEngineStatus

extension GRPCRequestReader {
    /// What the reader made of the frames it was given, in the order it happened.
    public enum Event: Hashable, Sendable {
        /// The request headers, checked (``GRPCRequestHead/init(headerFields:)``). Always first.
        case requestHead(GRPCRequestHead)
        /// One request message's serialized protobuf, decompressed when it was flagged
        /// compressed.
        case message([UInt8])
        /// The client ended the request (END_STREAM) between two messages. Last.
        case end
        /// The stream was reset (RST_STREAM) with this code before the request ended. Last.
        case reset(HTTP2ErrorCode)
        /// The request broke the gRPC protocol, or its connection went away before it ended; the
        /// error says what and where. Last.
        case failed(WireError)
    }
}
