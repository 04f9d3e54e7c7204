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
    /// The first field that makes the block malformed wherever it comes (RFC 9113 sections 8.2 and
    /// 8.3, and a repeated `grpc-status`), described; nil when none does.
    private(set) var malformation: String?
    /// The position and name of the first pseudo-header field, which trailers may not carry.
    private var firstPseudoHeader: (index: Int, name: String)?

    init(_ fields: [(name: String, value: String)]) {
        var firstRegularField: Int?
        for (index, (name, value)) in fields.enumerated() {
            if malformation == nil {
                malformation = Self.malformation(
                    of: (name, value), at: index, firstRegularField: firstRegularField,
                    statusSeen: httpStatusText != nil, grpcStatusSeen: grpcStatus != nil)
            }
            if name.utf8.first == UInt8(ascii: ":") {
                if firstPseudoHeader == nil { firstPseudoHeader = (index, name) }
            } else {
                firstRegularField = firstRegularField ?? index
            }
            switch name {
            case ":status": httpStatusText = httpStatusText ?? value
            case "content-type": contentType = contentType ?? value
            case "grpc-status": grpcStatus = grpcStatus ?? value
            case "grpc-message": grpcMessage = grpcMessage ?? value
            case "grpc-status-details-bin": grpcStatusDetailsBin = grpcStatusDetailsBin ?? value
            case "grpc-encoding":
                encoding = encoding ?? MessageEncoding(rawValue: String(value[...].trimmingFieldWhitespace()))
            case "grpc-accept-encoding":
                let entries = GRPCRequestHead.encodingList(value)
                // One field is the usual case: its list is taken as it is, not copied.
                if acceptedEncodings.isEmpty { acceptedEncodings = entries } else { acceptedEncodings += entries }
            default:
                // A pseudo-header here makes the block malformed (``malformation``); it is not
                // metadata either way.
                if name.utf8.first != UInt8(ascii: ":") { metadata.append(name: name, value: value) }
            }
        }
    }

    /// What makes the block malformed (RFC 9113 section 8.1.1: the response is then not to be
    /// accepted), or nil: ``malformation``, and for trailers any pseudo-header (section 8.1).
    func malformation(asTrailers: Bool) -> String? {
        if asTrailers, let (index, name) = firstPseudoHeader {
            return Self.describe(index, name)
                + " is a pseudo-header, which trailers do not carry (RFC 9113 section 8.1)"
        }
        return malformation
    }

    /// Why the field at `index` makes a response block malformed, or nil: a pseudo-header other
    /// than `:status`, repeated or after a regular field (section 8.3), a name that is empty or
    /// holds upper-case letters, controls, spaces, non-ASCII bytes or a colon, a value with NUL, CR
    /// or LF (section 8.2.1), a connection-specific field (section 8.2.2), a second `grpc-status`
    /// (a call has one status; gRPC's C core has refused the repeat, grpc-go and grpc-java take the
    /// last, so no reading of the first alone is safe).
    private static func malformation(
        of field: (name: String, value: String), at index: Int, firstRegularField: Int?, statusSeen: Bool,
        grpcStatusSeen: Bool
    ) -> String? {
        // Described only for a field that is malformed: every response's fields pass through here.
        var described: String { describe(index, field.name) }
        if field.name.utf8.first == UInt8(ascii: ":") {
            if let firstRegularField {
                return described + " comes after the regular field \(firstRegularField); pseudo-header fields come "
                    + "first (RFC 9113 section 8.3)"
            }
            guard field.name == ":status" else {
                return described + " is not a response pseudo-header (RFC 9113 section 8.3.2)"
            }
            if statusSeen { return described + " appears more than once (RFC 9113 section 8.3)" }
        } else if let problem = nameProblem(field.name) {
            return described + " " + problem + " (RFC 9113 section 8.2.1)"
        } else if grpcStatusSeen, field.name == "grpc-status" {
            return described + " appears more than once; a call ends with one status"
        } else if HeaderFieldRules.isConnectionSpecific(field.name) {
            return described + " is a connection-specific field, which HTTP/2 forbids (RFC 9113 section 8.2.2)"
        }
        let forbidden = HeaderFieldRules.firstOffset(in: field.value) { $0 == 0 || $0 == 0x0A || $0 == 0x0D }
        if let forbidden {
            let byte = Array(field.value.utf8)[forbidden]
            return described + " has a value with \(HeaderFieldRules.describe(byte)) at byte \(forbidden) "
                + "(RFC 9113 section 8.2.1)"
        }
        return nil
    }

    /// What makes `name` (not a pseudo-header's) one RFC 9113 section 8.2.1 forbids, or nil.
    private static func nameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "has an empty name" }
        let forbidden = HeaderFieldRules.firstOffset(in: name) { byte in
            byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: ":")
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }
        guard let forbidden else { return nil }
        let byte = Array(name.utf8)[forbidden]
        if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { return "has upper-case letters" }
        return "has \(HeaderFieldRules.describe(byte)) at byte \(forbidden), which a field name may not hold"
    }

    /// A field named by its position in the block and its name, for a message.
    private static func describe(_ index: Int, _ name: String) -> String {
        "header field \(index) (\(name))"
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
