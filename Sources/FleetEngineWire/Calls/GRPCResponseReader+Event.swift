public import FleetEngineStatus

extension GRPCResponseReader {
    /// What the reader made of the frames it was given, in the order it happened.
    public enum Event: Hashable, Sendable {
        /// The response headers: the server accepted the call and will send messages. Comes at
        /// most once, first; a Trailers-Only response has none.
        case responseHead(GRPCResponseHead)
        /// One response message's serialized protobuf, decompressed when it was flagged
        /// compressed.
        case message([UInt8])
        /// The call is over, with this status, and the trailers' custom metadata (everything but
        /// the pseudo-headers, `grpc-status`, `grpc-message`, `grpc-status-details-bin`,
        /// `content-type` and the encodings; for a response that was not gRPC, its headers'
        /// fields). Always the last event.
        case end(CallStatus, trailers: GRPCMetadata)
    }
}
