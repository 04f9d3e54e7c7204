import FleetEngineCodec

/// What a gRPC client sends in the HEADERS frame that opens a call: the method, where it goes,
/// its deadline, its compression, and its custom metadata.
///
/// gRPC PROTOCOL-HTTP2, "Requests": Request-Headers → Call-Definition *Custom-Metadata. Every
/// value is checked when it is set, so ``headerFields`` only copies values out:
///
/// ```swift
/// var head = try GRPCRequestHead(method: .getTrip, authority: "fleetengine.googleapis.com",
///                                timeout: GRPCTimeout(.seconds(10)), acceptedEncodings: [.gzip])
/// try head.appendMetadata(name: "authorization", value: "Bearer " + token)
/// stream.write(head.headerFields)
/// ```
///
/// ``init(headerFields:)`` reads a header block back, for the capture decoder.
public struct GRPCRequestHead: Hashable, Sendable {
    /// The `:scheme` of a gRPC request.
    public enum Scheme: String, Hashable, Sendable {
        /// Plaintext HTTP/2 (h2c).
        case http
        /// HTTP/2 over TLS.
        case https
    }

    /// The content type the call layer sends.
    public static let defaultContentType = "application/grpc"

    /// The method the call invokes: the `:path`.
    public var method: GRPCMethodPath
    /// `http` or `https`: the `:scheme`.
    public var scheme: Scheme
    /// The host (and port) the call is for: the `:authority`, absent when nil.
    public internal(set) var authority: String?
    /// The deadline as `grpc-timeout`; none (the server assumes an infinite one) when nil.
    public var timeout: GRPCTimeout?
    /// The `user-agent`, absent when nil.
    public internal(set) var userAgent: String?
    /// The `content-type`: `application/grpc` unless a received request said otherwise.
    public internal(set) var contentType: String
    /// How the request's messages are compressed: the `grpc-encoding`, not sent for `identity`.
    public internal(set) var encoding: MessageEncoding
    /// The encodings the client accepts for the response: `grpc-accept-encoding`, not sent when
    /// empty.
    public internal(set) var acceptedEncodings: [MessageEncoding]
    /// The custom metadata, in the order it is sent.
    public internal(set) var metadata: GRPCMetadata
    /// The `grpc-accept-encoding` value, joined once rather than for every call's header block.
    var acceptEncodingValue: String?

    /// A request head for a call of `method`.
    ///
    /// - Parameters:
    ///   - method: The method to call.
    ///   - authority: The `:authority`, the server's host and optional port.
    ///   - scheme: `https` for TLS, `http` for plaintext.
    ///   - timeout: The deadline to send as `grpc-timeout`.
    ///   - userAgent: The `user-agent` (PROTOCOL-HTTP2, "User Agents").
    ///   - encoding: The compression of the request's messages.
    ///   - acceptedEncodings: The compressions the client can read in the response.
    ///   - metadata: Custom metadata, checked as ``appendMetadata(name:value:)`` checks it.
    /// - Throws: ``WireError/Code/invalidHeader`` for an authority, user agent or encoding name
    ///   that is not visible ASCII; what ``appendMetadata(name:value:)`` throws.
    public init(
        method: GRPCMethodPath,
        authority: String?,
        scheme: Scheme = .https,
        timeout: GRPCTimeout? = nil,
        userAgent: String? = nil,
        encoding: MessageEncoding = .identity,
        acceptedEncodings: [MessageEncoding] = [],
        metadata: GRPCMetadata = [:]
    ) throws(WireError) {
        self.method = method
        self.scheme = scheme
        self.timeout = timeout
        self.contentType = Self.defaultContentType
        self.metadata = GRPCMetadata()
        try Self.check(authority, field: ":authority", allowSpaces: false)
        try Self.check(userAgent, field: "user-agent", allowSpaces: true)
        try Self.check(encoding.rawValue, field: "grpc-encoding", allowSpaces: false)
        for accepted in acceptedEncodings {
            try Self.check(accepted.rawValue, field: "grpc-accept-encoding", allowSpaces: false)
            guard !accepted.rawValue.utf8.contains(UInt8(ascii: ",")) else {
                throw WireError(
                    code: .invalidHeader,
                    message: "grpc-accept-encoding entry \"\(accepted)\" contains ',', the list separator")
            }
        }
        self.authority = authority
        self.userAgent = userAgent
        self.encoding = encoding
        self.acceptedEncodings = acceptedEncodings
        self.acceptEncodingValue = Self.joined(acceptedEncodings)
        for field in metadata {
            try appendMetadata(name: field.name, value: field.value)
        }
    }

    /// Appends one custom metadata field.
    ///
    /// - Throws: ``WireError/Code/reservedMetadata`` for a name the call layer writes itself or
    ///   gRPC reserves (a pseudo-header, `te`, `content-type`, `user-agent`, any `grpc-` name) or
    ///   HTTP/2 forbids (`connection` and the other connection-specific fields);
    ///   ``WireError/Code/invalidMetadata`` for a name that is not 0-9 a-z _ - . only, a `-bin`
    ///   value that is not base64, or another value that is not printable ASCII without spaces at
    ///   either end.
    public mutating func appendMetadata(name: String, value: String) throws(WireError) {
        appendMetadata(try GRPCCheckedMetadataField(name: name, value: value))
    }

    /// Appends one custom metadata field that was checked when it was made.
    public mutating func appendMetadata(_ checked: GRPCCheckedMetadataField) {
        metadata.append(name: checked.field.name, value: checked.field.value)
    }

    /// Appends one binary custom metadata field, `value` as unpadded base64 (PROTOCOL-HTTP2,
    /// "Requests": senders should emit unpadded values).
    ///
    /// - Throws: ``WireError/Code/invalidMetadata`` when `name` does not end in `-bin`, and what
    ///   ``appendMetadata(name:value:)`` throws for the name.
    public mutating func appendMetadata(name: String, binaryValue value: some Collection<UInt8>) throws(WireError) {
        guard HeaderFieldRules.isBinaryName(name) else {
            throw WireError(
                code: .invalidMetadata,
                message: "metadata name \"\(name)\" does not end in -bin, so it cannot carry binary values")
        }
        try appendMetadata(name: name, value: Base64.encode(value, padded: false))
    }

    /// The header block, in the order gRPC PROTOCOL-HTTP2 "Requests" asks for: the pseudo-headers
    /// (`:method POST`, `:scheme`, `:path`, `:authority`), then `grpc-timeout` ("implementations
    /// should send Timeout immediately after the reserved headers"), the rest of the
    /// Call-Definition (`content-type`, `te: trailers`, `grpc-encoding`, `grpc-accept-encoding`,
    /// `user-agent`), then the custom metadata.
    public var headerFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(10 + metadata.count)
        fields.append((":method", "POST"))
        fields.append((":scheme", scheme.rawValue))
        fields.append((":path", method.path))
        if let authority { fields.append((":authority", authority)) }
        if let timeout { fields.append(("grpc-timeout", timeout.headerValue)) }
        fields.append(("content-type", contentType))
        fields.append(("te", "trailers"))
        if encoding != .identity { fields.append(("grpc-encoding", encoding.rawValue)) }
        if let acceptEncodingValue { fields.append(("grpc-accept-encoding", acceptEncodingValue)) }
        if let userAgent { fields.append(("user-agent", userAgent)) }
        for field in metadata.fields { fields.append((field.name, field.value)) }
        return fields
    }

    static func joined(_ encodings: [MessageEncoding]) -> String? {
        encodings.isEmpty ? nil : encodings.map(\.rawValue).joined(separator: ",")
    }

    private static func check(_ value: String?, field: String, allowSpaces: Bool) throws(WireError) {
        guard let value else { return }
        guard !value.isEmpty else {
            throw WireError(code: .invalidHeader, message: "\(field) is empty")
        }
        if let reason = HeaderFieldRules.textProblem(value, allowSpaces: allowSpaces) {
            throw WireError(code: .invalidHeader, message: "\(field) \"\(value)\" \(reason)")
        }
    }
}
