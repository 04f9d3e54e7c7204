extension StatusCode {
    /// The gRPC status for a response that came back without `grpc-status`, from its HTTP status.
    ///
    /// gRPC's doc/http-grpc-status-mapping.md ("HTTP to gRPC Status Code Mapping"), for responses
    /// an intermediary (a proxy, a load balancer) produced instead of a gRPC server; a response
    /// that does carry `grpc-status` must use that instead:
    ///
    /// | HTTP status | gRPC code |
    /// | --- | --- |
    /// | 400 Bad Request, 431 Request Header Fields Too Large | INTERNAL |
    /// | 401 Unauthorized | UNAUTHENTICATED |
    /// | 403 Forbidden | PERMISSION_DENIED |
    /// | 404 Not Found | UNIMPLEMENTED |
    /// | 429 Too Many Requests, 502 Bad Gateway, 503 Service Unavailable, 504 Gateway Timeout | UNAVAILABLE |
    /// | any other | UNKNOWN |
    ///
    /// 1xx statuses are informational and never end a response; one seen in their place is
    /// INTERNAL, as grpc-java treats it.
    public init(httpStatus: Int) {
        switch httpStatus {
        case 100...199, 400, 431: self = .internalError
        case 401: self = .unauthenticated
        case 403: self = .permissionDenied
        case 404: self = .unimplemented
        case 429, 502, 503, 504: self = .unavailable
        default: self = .unknown
        }
    }

    /// The HTTP status a service answering HTTP should send for this code.
    ///
    /// The Google Cloud error model (google/rpc/code.proto, and the "HTTP mapping" of Google's API
    /// design guide's "Errors" page), which Fleet Engine's REST surface follows. Not the inverse of
    /// ``init(httpStatus:)``: that table is gRPC's, for intermediaries, and neither is one to one.
    /// A code gRPC does not define answers as UNKNOWN does (500).
    public var httpStatus: Int {
        switch effective {
        case .ok: 200
        case .cancelled: 499
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .unauthenticated: 401
        case .permissionDenied: 403
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .deadlineExceeded: 504
        default: 500  // UNKNOWN, INTERNAL, DATA_LOSS
        }
    }
}
