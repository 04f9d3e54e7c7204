public import FleetEngineCodec
public import FleetEngineStatus

/// One thing the capture decoder found: a gRPC message, the end of a call, or a problem with the
/// capture that decoding went on past.
public enum CaptureRecord: Sendable {
    case message(CapturedMessage)
    case callEnd(CapturedCallEnd)
    case problem(CaptureProblem)
}

/// Which side of a call sent a message.
public enum CallDirection: String, Sendable, Hashable {
    /// From the client (the gRPC request).
    case request
    /// From the server (the gRPC response).
    case response
}

/// A connection as the records name it: the client's and the server's endpoint.
public struct CapturedConnection: Sendable, Hashable, CustomStringConvertible {
    /// A number, unique within one decoding run, in order of first appearance.
    public var id: Int
    /// The client's endpoint; nil for a raw HTTP/2 stream, which has no addresses.
    public var client: TCPEndpoint?
    /// The server's endpoint; nil for a raw HTTP/2 stream.
    public var server: TCPEndpoint?

    public init(id: Int, client: TCPEndpoint?, server: TCPEndpoint?) {
        self.id = id
        self.client = client
        self.server = server
    }

    /// `client -> server`, e.g. `127.0.0.1:50312 -> 127.0.0.1:443` (the words `client` and
    /// `server` for a raw HTTP/2 stream).
    public var description: String {
        "\(client.map(\.description) ?? "client") -> \(server.map(\.description) ?? "server")"
    }
}

/// One gRPC message of a call.
public struct CapturedMessage: Sendable {
    /// When the packet that completed the message was captured.
    public var timestamp: CaptureTimestamp
    public var connection: CapturedConnection
    public var streamID: UInt32
    public var direction: CallDirection
    /// The call's `:path`, when known.
    public var method: String?
    /// Whether ``method`` was inferred (from the message's shape, or given by the user) because
    /// the header block that named it could not be decoded.
    public var methodInferred: Bool
    /// The message, decoded with its schema; nil for methods without one (printed schema-less).
    public var message: (any ProtobufMessage)?
    /// The serialized message (decompressed when it was compressed).
    public var payload: [UInt8]
    /// Why the message did not decode with its schema, when it did not.
    public var decodingError: CodecError?
    /// Where the message's DATA frame starts in the input.
    public var byteOffset: Int64
    /// Whether a header block of the call so far (its request headers, response headers or
    /// trailers) was read with HPACK dynamic-table entries from before bytes the capture lost,
    /// which may have held blocks that added entries: its fields, and what was taken from them
    /// (the method, the status), are likely right but not certain.
    public var headersUncertain = false

    /// The full protobuf name of ``message``'s type, when it has one.
    public var typeName: String? { message.map { type(of: $0).protoMessageName } }
}

/// The end of a call: its status, as the trailers (or a Trailers-Only response, or RST_STREAM)
/// gave it.
public struct CapturedCallEnd: Sendable {
    public var timestamp: CaptureTimestamp
    public var connection: CapturedConnection
    public var streamID: UInt32
    public var method: String?
    public var methodInferred: Bool
    public var status: CallStatus
    /// From the request headers to the end, when the capture saw both.
    public var latencyNanoseconds: Int64?
    public var requestMessageCount: Int
    public var responseMessageCount: Int
    /// Whether a header block of the call so far (its request headers, response headers or
    /// trailers) was read with HPACK dynamic-table entries from before bytes the capture lost,
    /// which may have held blocks that added entries: its fields, and what was taken from them
    /// (the method, the status), are likely right but not certain.
    public var headersUncertain = false

    /// The typed error, when the call failed.
    public var error: FleetEngineError? { status.error }
}

/// Something in the capture that could not be read, and that decoding went on past.
public struct CaptureProblem: Sendable {
    public var timestamp: CaptureTimestamp?
    public var connection: CapturedConnection?
    public var streamID: UInt32?
    public var error: CaptureError
}
