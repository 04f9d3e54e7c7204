public import FleetEngineCodec

/// A failure of a Fleet Engine call, or of following a trip: the one error type the library throws.
///
/// Whatever went wrong — a gRPC status from the server, a response from a proxy without one, a
/// reset stream, a lost connection, a request refused before it was sent, an `NSError` or a
/// grpc-swift `RPCError` handed in from elsewhere — ends up as one of these, with:
///
/// - ``code``, the gRPC status code (kept as it arrived, even a number gRPC does not define);
/// - ``message``, the server's text (percent-decoded) or ours;
/// - ``details``, the `google.rpc.Status` details from `grpc-status-details-bin`, typed;
/// - ``family``, who has to act (the Consumer SDK's error model), ``isRetryable`` and ``retryDelay``;
/// - ``origin``, where the status came from, and ``cause``, the underlying error if there was one.
///
/// It bridges to `NSError` in the `io.grpc` domain with the status code as the error code, as the
/// Consumer SDK's errors do: `(error as NSError).domain == "io.grpc"` holds.
///
/// Two errors are equal when their codes are equal, so a test can build the error it expects from
/// a code alone; the rest is checked through the properties.
public struct FleetEngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The gRPC status code, as the server (or the mapping that stood in for it) gave it.
    public var code: StatusCode
    /// What went wrong, in words: the server's `grpc-message`, or the library's own text.
    public var message: String
    /// The typed entries of `google.rpc.Status.details`, in the order the server sent them.
    public var details: [StatusDetail]
    /// Where the status came from.
    public var origin: Origin
    /// The error underneath, when another library or layer reported the failure first.
    public var cause: (any Error)?
    /// The `google.rpc.Status` decoded from `grpc-status-details-bin`, whole, when one came.
    ///
    /// Its `code` and `message` are the server's copy; gRPC makes `grpc-status` authoritative, so
    /// ``code`` comes from the trailer even when the two disagree.
    public var rpcStatus: RPCStatus?
    /// Why `grpc-status-details-bin` could not be used, when it came but was not valid base64 or
    /// not a `google.rpc.Status`. The raw value is in ``StatusDetailsProblem/rawValue``.
    public var statusDetailsProblem: StatusDetailsProblem?

    /// An error with a code and a message, and optionally details, an origin and a cause.
    public init(
        code: StatusCode,
        message: String,
        details: [StatusDetail] = [],
        origin: Origin = .local,
        cause: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.origin = origin
        self.cause = cause
        self.rpcStatus = nil
        self.statusDetailsProblem = nil
    }

    /// Who has to act: ``ErrorFamily/serverOrNetwork`` for an interrupted refresh whatever its code,
    /// otherwise the code's family.
    public var family: ErrorFamily {
        origin == .interruptedRefresh ? .serverOrNetwork : ErrorFamily(code)
    }

    /// Whether sending the same request again can succeed without the caller changing anything.
    ///
    /// True for the server/network family; true for RESOURCE_EXHAUSTED only when the server said
    /// when (a RetryInfo detail), and only after ``retryDelay``. Whether a retry is *safe* is a
    /// separate question (see ``requestWasProcessed``): a non-idempotent call that the server may
    /// have carried out should not be sent twice.
    public var isRetryable: Bool {
        if family == .serverOrNetwork { return true }
        return code.effective == .resourceExhausted && retryDelay != nil
    }

    /// The delay the server asked for before a retry (the first RetryInfo detail), if it asked.
    /// A negative delay counts as zero.
    public var retryDelay: Duration? {
        for detail in details {
            if case .retryInfo(let info) = detail, let delay = info.retryDelay {
                let duration = Duration.seconds(delay.seconds) + Duration.nanoseconds(Int64(delay.nanos))
                return max(duration, .zero)
            }
        }
        return nil
    }

    /// Whether the server may have acted on the request. False only when it is known that it did
    /// not: the stream was refused (RST_STREAM REFUSED_STREAM, gRPC's PROTOCOL-HTTP2 "Errors"), or
    /// the request never left this process. Any request is safe to retry when this is false.
    public var requestWasProcessed: Bool {
        switch origin {
        case .local: false
        case .streamReset(.refusedStream): false
        case .connection(let requestSent): requestSent
        default: true
        }
    }

    public static func == (lhs: FleetEngineError, rhs: FleetEngineError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// `UNAVAILABLE (14): <message>`, then the origin when the status did not come from the server,
    /// on one line with control characters escaped (``TerminalText``): the message is often the
    /// server's words, and this is the text logs and terminals get. ``message`` keeps them as sent.
    public var description: String {
        var text = "\(code) (\(code.rawValue)): \(message)"
        switch origin {
        case .status: break
        default: text += " [\(origin)]"
        }
        if let cause { text += "; caused by: \(cause)" }
        return TerminalText.escaped(text)
    }
}

extension FleetEngineError {
    /// Where a status came from.
    public enum Origin: Hashable, Sendable, CustomStringConvertible {
        /// The server's gRPC status: trailers, or a Trailers-Only response.
        case status
        /// A response without `grpc-status`, mapped from its HTTP status (``StatusCode/init(httpStatus:)``).
        case httpStatus(Int)
        /// The call's stream was reset (``StatusCode/init(rstStreamErrorCode:)``): by the server, or,
        /// in a capture, by the client, as the status's message says.
        case streamReset(HTTP2ErrorCode)
        /// The connection failed or closed under the call; `requestSent` tells whether the request
        /// had been written to it.
        case connection(requestSent: Bool)
        /// A refresh of a followed trip that ended before its response arrived (the Consumer SDK's
        /// error model puts it in the server/network family; no gRPC code has this name, so its code
        /// is UNAVAILABLE).
        case interruptedRefresh
        /// The library refused the call before anything was sent (a malformed trip name, a
        /// deadline already past, a message too large).
        case local
        /// A response arrived but could not be read (a message that does not decode, a stream that
        /// breaks the gRPC protocol).
        case malformedResponse
        /// Converted from an error of another library (an `NSError`, a grpc-swift `RPCError`).
        case bridged

        public var description: String {
            switch self {
            case .status: "gRPC status"
            case .httpStatus(let status): "HTTP status \(status) without grpc-status"
            case .streamReset(let code): "stream reset with \(code)"
            case .connection(let requestSent): requestSent ? "connection lost" : "connection failed before sending"
            case .interruptedRefresh: "refresh interrupted"
            case .local: "refused locally"
            case .malformedResponse: "malformed response"
            case .bridged: "converted from another error"
            }
        }
    }

    /// `grpc-status-details-bin` arrived but could not be used.
    public struct StatusDetailsProblem: Hashable, Sendable, CustomStringConvertible {
        /// The trailer's value as it arrived.
        public var rawValue: String
        /// What was wrong with it: not base64, or base64 of something that is not a `google.rpc.Status`.
        public var reason: CodecError

        public var description: String {
            "grpc-status-details-bin could not be read: \(reason)"
        }
    }
}
