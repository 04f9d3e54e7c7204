import FleetEngineStatus

extension GRPCRequestHead {
    /// Reads a request's header block, as a server or the capture decoder receives it.
    ///
    /// Checked as gRPC PROTOCOL-HTTP2 "Requests" and RFC 9113 section 8.3 require: `:method`,
    /// `:scheme` and `:path` present once each, pseudo-headers before all other fields, `:method`
    /// POST, `:scheme` `http` or `https`, `:path` `/Service/Method`, a `content-type` that begins
    /// with `application/grpc`, `te` (when present) `trailers`, a well-formed `grpc-timeout`.
    /// Custom metadata is kept as it came, `grpc-` names included (a peer's gRPC library may send
    /// ones this layer does not write), with only upper-case names refused (RFC 9113 section
    /// 8.2.1 makes them malformed); PROTOCOL-HTTP2 asks receivers not to fail on odd values.
    ///
    /// - Throws: ``WireError/Code/missingHeader`` or ``WireError/Code/invalidHeader`` naming the
    ///   field and its position in the block; ``WireError/Code/invalidMethodPath`` for the path.
    public init(headerFields: [(name: String, value: String)]) throws(WireError) {
        var methodValue: String?
        var schemeValue: String?
        var pathValue: String?
        var authority: String?
        var contentType: String?
        var timeout: GRPCTimeout?
        var userAgent: String?
        var encoding: MessageEncoding?
        var acceptedEncodings: [MessageEncoding]?
        var metadata = GRPCMetadata()
        var regularFieldIndex: Int?

        for (index, (name, value)) in headerFields.enumerated() {
            func once(_ slot: inout String?) throws(WireError) {
                guard slot == nil else { throw Self.fault(.invalidHeader, index, name, "appears more than once") }
                slot = value
            }
            if name.utf8.first == UInt8(ascii: ":") {
                if let regularFieldIndex {
                    throw Self.fault(
                        .invalidHeader, index, name,
                        "comes after the regular field \(regularFieldIndex); pseudo-headers come first "
                            + "(RFC 9113 section 8.3)")
                }
                switch name {
                case ":method": try once(&methodValue)
                case ":scheme": try once(&schemeValue)
                case ":path": try once(&pathValue)
                case ":authority": try once(&authority)
                default:
                    throw Self.fault(
                        .invalidHeader, index, name, "is not a request pseudo-header (RFC 9113 section 8.3.1)")
                }
                continue
            }
            regularFieldIndex = regularFieldIndex ?? index
            switch name {
            case "content-type":
                try once(&contentType)
            case "te":
                // RFC 9113 section 8.2.2: TE may appear in HTTP/2 only with the value "trailers".
                guard value == "trailers" else {
                    throw Self.fault(.invalidHeader, index, name, "is \"\(value)\"; HTTP/2 allows only \"trailers\"")
                }
            case "grpc-timeout":
                guard timeout == nil else { throw Self.fault(.invalidHeader, index, name, "appears more than once") }
                guard let parsed = GRPCTimeout(headerValue: value) else {
                    throw Self.fault(
                        .invalidHeader, index, name, "is \"\(value)\", not 1 to 8 digits and a unit H M S m u n")
                }
                timeout = parsed
            case "grpc-encoding":
                guard encoding == nil else { throw Self.fault(.invalidHeader, index, name, "appears more than once") }
                encoding = MessageEncoding(rawValue: String(value[...].trimmingFieldWhitespace()))
            case "grpc-accept-encoding":
                acceptedEncodings = (acceptedEncodings ?? []) + Self.encodingList(value)
            case "user-agent":
                try once(&userAgent)
            default:
                if name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
                    throw Self.fault(.invalidHeader, index, name, "has upper-case letters (RFC 9113 section 8.2.1)")
                }
                metadata.append(name: name, value: value)
            }
        }

        guard let methodValue else { throw Self.missing(":method") }
        guard methodValue == "POST" else {
            throw WireError(code: .invalidHeader, message: ":method is \"\(methodValue)\"; gRPC calls are POST")
        }
        guard let schemeValue else { throw Self.missing(":scheme") }
        guard let scheme = Scheme(rawValue: schemeValue) else {
            throw WireError(code: .invalidHeader, message: ":scheme is \"\(schemeValue)\", not http or https")
        }
        guard let pathValue else { throw Self.missing(":path") }
        let method = try GRPCMethodPath(path: pathValue)
        guard let contentType else { throw Self.missing("content-type") }
        guard HeaderFieldRules.isGRPCContentType(contentType) else {
            throw WireError(
                code: .invalidHeader,
                message: "content-type is \"\(contentType)\", which does not begin with application/grpc")
        }

        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.timeout = timeout
        self.userAgent = userAgent
        self.contentType = contentType
        self.encoding = encoding ?? .identity
        self.acceptedEncodings = acceptedEncodings ?? []
        self.acceptEncodingValue = Self.joined(self.acceptedEncodings)
        self.metadata = metadata
    }

    /// The entries of a `grpc-accept-encoding` value: comma-separated, spaces and tabs around each
    /// dropped.
    ///
    /// Split and trimmed by bytes: a server sends this on every response, and splitting and trimming
    /// the `String` by characters cost more than the rest of reading the response's headers.
    static func encodingList(_ value: String) -> [MessageEncoding] {
        let bytes = value.utf8
        var encodings: [MessageEncoding] = []
        encodings.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 })
        var entryStart = bytes.startIndex
        while entryStart < bytes.endIndex {
            let entryEnd = bytes[entryStart...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            let name = value[entryStart..<entryEnd].trimmingFieldWhitespace()
            if !name.isEmpty { encodings.append(MessageEncoding(rawValue: String(name))) }
            entryStart = entryEnd == bytes.endIndex ? entryEnd : bytes.index(after: entryEnd)
        }
        return encodings
    }

    private static func fault(_ code: WireError.Code, _ index: Int, _ name: String, _ problem: String) -> WireError {
        WireError(code: code, message: "header field \(index) (\(name)) \(problem)")
    }

    private static func missing(_ name: String) -> WireError {
        WireError(code: .missingHeader, message: "the request header block has no \(name)")
    }
}
