/// The headers that open a gRPC response, before its messages.
///
/// gRPC PROTOCOL-HTTP2, "Responses": Response-Headers → HTTP-Status [Message-Encoding]
/// [Message-Accept-Encoding] Content-Type *Custom-Metadata. ``GRPCResponseReader`` produces one
/// only for a response that is gRPC: `:status` 200 and an `application/grpc` content type.
public struct GRPCResponseHead: Hashable, Sendable {
    /// The `:status`: 200 for every head the reader produces.
    public var httpStatus: Int
    /// The `content-type`, beginning with `application/grpc`.
    public var contentType: String
    /// How the response's messages are compressed: `grpc-encoding`, `identity` when absent.
    public var encoding: MessageEncoding
    /// The encodings the server accepts for requests: `grpc-accept-encoding`, empty when absent.
    public var acceptedEncodings: [MessageEncoding]
    /// Every other field, in order: the server's custom metadata (and HTTP fields such as `date`).
    public var metadata: GRPCMetadata

    /// A response head from its parts.
    public init(
        httpStatus: Int = 200,
        contentType: String = GRPCRequestHead.defaultContentType,
        encoding: MessageEncoding = .identity,
        acceptedEncodings: [MessageEncoding] = [],
        metadata: GRPCMetadata = [:]
    ) {
        self.httpStatus = httpStatus
        self.contentType = contentType
        self.encoding = encoding
        self.acceptedEncodings = acceptedEncodings
        self.metadata = metadata
    }
}
