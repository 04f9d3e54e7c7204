import FleetEngineStatus

/// One response header block (headers, trailers or Trailers-Only), sorted in a single pass into
/// the fields gRPC gives a meaning and the custom metadata.
struct ResponseHeaderBlock {
    /// The first `:status` value.
    var httpStatusText: String?
    /// The first `content-type` value.
    var contentType: String?
    /// The first `grpc-status` value.
    var grpcStatus: String?
    /// The first `grpc-message` value.
    var grpcMessage: String?
    /// The first `grpc-status-details-bin` value.
    var grpcStatusDetailsBin: String?
    /// The first `grpc-encoding` value.
    var encoding: MessageEncoding?
    /// Every `grpc-accept-encoding` entry.
    var acceptedEncodings: [MessageEncoding] = []
    /// Every other field that is not a pseudo-header, in order.
    var metadata = GRPCMetadata()

    init(_ fields: [(name: String, value: String)]) {
        for (name, value) in fields {
            switch name {
            case ":status": httpStatusText = httpStatusText ?? value
            case "content-type": contentType = contentType ?? value
            case "grpc-status": grpcStatus = grpcStatus ?? value
            case "grpc-message": grpcMessage = grpcMessage ?? value
            case "grpc-status-details-bin": grpcStatusDetailsBin = grpcStatusDetailsBin ?? value
            case "grpc-encoding":
                encoding = encoding ?? MessageEncoding(rawValue: String(value[...].trimmingASCIISpaces()))
            case "grpc-accept-encoding": acceptedEncodings += GRPCRequestHead.encodingList(value)
            default:
                // RFC 9113 section 8.1: trailers carry no pseudo-headers, and a response has no
                // other than :status; one that arrives anyway has no meaning to keep.
                if name.utf8.first != UInt8(ascii: ":") { metadata.append(name: name, value: value) }
            }
        }
    }

    /// The `:status` as a number: three digits (RFC 9110 section 15), nil otherwise.
    var httpStatus: Int? {
        guard let httpStatusText, httpStatusText.utf8.count == 3,
            httpStatusText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(httpStatusText)
    }

    /// Whether the content type is gRPC's.
    var isGRPC: Bool {
        contentType.map(HeaderFieldRules.isGRPCContentType) ?? false
    }

    /// The status of a response that is not gRPC: a `:status` other than 200, or a content type
    /// other than `application/grpc`, and no `grpc-status`.
    ///
    /// gRPC PROTOCOL-HTTP2, "Responses": implementations must synthesize a status for such a
    /// response. The code comes from http-grpc-status-mapping.md (``StatusCode/init(httpStatus:)``,
    /// UNKNOWN for 200), as grpc-java reads it; the message says what arrived. A `grpc-message` or
    /// `grpc-status-details-bin` that came all the same (a proxy's 503, say) is kept: the message
    /// and the details are the server's, the code still the HTTP status's.
    func nonGRPCStatus(httpStatus: Int) -> CallStatus {
        var contentNote: String?
        if let contentType, !isGRPC {
            contentNote = "content-type \"\(contentType)\", not application/grpc"
        } else if contentType == nil {
            contentNote = "no content-type"
        }
        let origin: FleetEngineError.Origin = httpStatus == 200 ? .malformedResponse : .httpStatus(httpStatus)
        if grpcMessage != nil || grpcStatusDetailsBin != nil {
            var status = CallStatus(
                grpcStatus: nil, grpcMessage: grpcMessage, grpcStatusDetailsBin: grpcStatusDetailsBin,
                httpStatus: httpStatus)
            status.origin = origin
            if let contentNote { status.message += " (HTTP status \(httpStatus), \(contentNote))" }
            return status
        }
        var message = "HTTP status \(httpStatus)"
        if httpStatus != 200 { message += " without grpc-status" }
        if let contentNote { message += ", " + contentNote }
        return CallStatus(code: StatusCode(httpStatus: httpStatus), message: message, origin: origin)
    }
}
