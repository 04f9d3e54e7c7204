public import FleetEngineCodec

/// The status a gRPC call ended with, read from the raw values that carry it.
///
/// The one place where trailers (or a Trailers-Only response, or an HTTP status without gRPC, or a
/// reset stream) become a status, for the live client and the capture decoder alike. OK is a
/// status too; ``error`` is nil for it.
public struct CallStatus: Sendable, Hashable, CustomStringConvertible {
    /// The status code.
    public var code: StatusCode
    /// The status message, percent-decoded.
    public var message: String
    /// The typed details of `grpc-status-details-bin`.
    public var details: [StatusDetail]
    /// Where the status came from.
    public var origin: FleetEngineError.Origin
    /// The whole `google.rpc.Status` from `grpc-status-details-bin`, when it came and decoded.
    public var rpcStatus: RPCStatus?
    /// Why `grpc-status-details-bin` could not be used, when it came and could not.
    public var statusDetailsProblem: FleetEngineError.StatusDetailsProblem?

    /// A status from its parts.
    public init(
        code: StatusCode,
        message: String = "",
        details: [StatusDetail] = [],
        origin: FleetEngineError.Origin = .status
    ) {
        self.code = code
        self.message = message
        self.details = details
        self.origin = origin
    }

    /// Reads the status from trailer values (gRPC's doc/PROTOCOL-HTTP2.md, "Responses").
    ///
    /// - Parameters:
    ///   - grpcStatus: the `grpc-status` value, a decimal number. When it is absent the status
    ///     comes from `httpStatus` (``StatusCode/init(httpStatus:)``); when it is not a number the
    ///     code is UNKNOWN and the message says what arrived.
    ///   - grpcMessage: the `grpc-message` value, percent-encoded; malformed escapes are kept as
    ///     they are (``StatusMessageText/decode(_:)``). When absent, the message of the
    ///     `google.rpc.Status` in `grpcStatusDetailsBin` stands in for it.
    ///   - grpcStatusDetailsBin: the `grpc-status-details-bin` value: base64 (standard or URL-safe
    ///     alphabet, padded or not) of a serialized `google.rpc.Status`. A value that does not decode
    ///     never hides the status: it is kept in ``statusDetailsProblem`` with the reason.
    ///   - httpStatus: the response's `:status`, for a response without `grpc-status`.
    public init(grpcStatus: String?, grpcMessage: String?, grpcStatusDetailsBin: String?, httpStatus: Int? = nil) {
        var message = grpcMessage.map { StatusMessageText.decode($0) }
        var fallback: String?
        if let grpcStatus {
            let trimmed = grpcStatus[...].trimmingFieldWhitespace()
            if let value = Self.parseCode(trimmed) {
                self.init(code: StatusCode(rawValue: value), origin: .status)
            } else {
                self.init(code: .unknown, origin: .status)
                message = "grpc-status \"\(trimmed)\" is not a status code" + (message.map { ": " + $0 } ?? "")
            }
        } else if let httpStatus {
            self.init(code: StatusCode(httpStatus: httpStatus), origin: .httpStatus(httpStatus))
            fallback = "HTTP status \(httpStatus) without grpc-status"
        } else {
            self.init(code: .unknown, origin: .status)
            fallback = "the response ended without grpc-status"
        }
        if let grpcStatusDetailsBin {
            do throws(CodecError) {
                let bytes = try Base64.decode(String(grpcStatusDetailsBin[...].trimmingFieldWhitespace()))
                let status = try RPCStatus(serializedBytes: bytes)
                rpcStatus = status
                details = status.details.map(StatusDetail.init)
                if message == nil || message == "", !status.message.isEmpty { message = status.message }
            } catch {
                statusDetailsProblem = FleetEngineError.StatusDetailsProblem(
                    rawValue: grpcStatusDetailsBin, reason: error)
            }
        }
        if message == nil || message == "" { message = fallback ?? message }
        self.message = message ?? ""
    }

    /// The status of a call whose stream was reset (RST_STREAM) before it ended with a status.
    ///
    /// - Parameters:
    ///   - rstStreamErrorCode: The frame's error code, mapped by gRPC PROTOCOL-HTTP2 "Errors".
    ///   - sentByClient: Whether the client sent the frame (a cancelled call, a deadline that
    ///     passed: what a capture shows); the message names who reset the stream.
    public init(rstStreamErrorCode: HTTP2ErrorCode, sentByClient: Bool = false) {
        self.init(
            code: StatusCode(rstStreamErrorCode: rstStreamErrorCode),
            message: "the \(sentByClient ? "client" : "server") reset the stream with \(rstStreamErrorCode)",
            origin: .streamReset(rstStreamErrorCode)
        )
    }

    /// Whether the call succeeded.
    public var isOK: Bool { code == .ok }

    /// The status as an error, or nil when it is OK.
    public var error: FleetEngineError? {
        if isOK { return nil }
        var error = FleetEngineError(code: code, message: message, details: details, origin: origin)
        error.rpcStatus = rpcStatus
        error.statusDetailsProblem = statusDetailsProblem
        return error
    }

    /// `OK`, or the error's description.
    public var description: String {
        error?.description ?? "OK"
    }

    /// `grpc-status` is 1*DIGIT; the number must fit an `Int32`, as `google.rpc.Status.code` does.
    private static func parseCode(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(text), value <= Int(Int32.max)
        else { return nil }
        return value
    }
}
