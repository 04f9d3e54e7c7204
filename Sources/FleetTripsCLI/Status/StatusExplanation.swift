import FleetEngineCodec
import FleetEngineStatus
import FleetTripsInput

/// What `fleettrips status` tells about a gRPC status: what the code means, who has to act, whether
/// a retry can help, the HTTP status it corresponds to, and the details a server sent with it.
///
/// Built from a code, from an HTTP status (gRPC's mapping for a response without `grpc-status`), or
/// from a `grpc-status-details-bin` value with or without either; printed as readable text
/// (``text``) or as one JSON object on one line (``json``). The client commands build one from the
/// ``FleetEngineError`` a call failed with (``init(error:)``) and print it the same way.
struct StatusExplanation: Sendable, Hashable {
    /// The code explained.
    var code: StatusCode
    /// The HTTP status ``code`` was mapped from, when the status was given as one.
    var mappedFromHTTPStatus: Int?
    /// The `google.rpc.Status` read from `grpc-status-details-bin`, when one was given.
    var rpcStatus: RPCStatus?
    /// The typed entries of ``rpcStatus``'s details, in the order they came.
    var details: [StatusDetail]
    /// Where the status came from, when it explains a call that failed (``init(error:)``).
    var origin: FleetEngineError.Origin?

    /// The explanation of a code on its own.
    init(code: StatusCode) {
        self.code = code
        self.mappedFromHTTPStatus = nil
        self.rpcStatus = nil
        self.details = []
        self.origin = nil
    }

    /// The explanation of the code gRPC gives a response that has this HTTP status and no
    /// `grpc-status` (``StatusCode/init(httpStatus:)``).
    init(httpStatus: Int) {
        self.init(code: StatusCode(httpStatus: httpStatus))
        self.mappedFromHTTPStatus = httpStatus
    }

    /// The explanation of a `grpc-status-details-bin` value, read as ``CallStatus`` reads trailers.
    ///
    /// The code explained is `code` when given, else the one `httpStatus` maps to, else the code
    /// inside the `google.rpc.Status`: `grpc-status` takes precedence over that copy, as gRPC asks.
    ///
    /// - Parameters:
    ///   - code: the `grpc-status` that came with the value, if any.
    ///   - httpStatus: the HTTP status of a response without `grpc-status`, if any.
    ///   - grpcStatusDetailsBin: base64 (standard or URL-safe alphabet, padded or not) of a
    ///     serialized `google.rpc.Status`.
    /// - Throws: ``FleetTripsError/Code/invalidMessage`` when the value is not base64 or not a
    ///   `google.rpc.Status`, with the codec's reason as the cause.
    init(code: StatusCode?, httpStatus: Int?, grpcStatusDetailsBin: String) throws(FleetTripsError) {
        let call = CallStatus(
            grpcStatus: code.map { String($0.rawValue) },
            grpcMessage: nil,
            grpcStatusDetailsBin: grpcStatusDetailsBin,
            httpStatus: httpStatus)
        if let problem = call.statusDetailsProblem {
            throw FleetTripsError(
                code: .invalidMessage,
                message: "--details-bin is not base64 of a google.rpc.Status",
                cause: problem.reason)
        }
        guard let rpcStatus = call.rpcStatus else {
            throw FleetTripsError(code: .invalidMessage, message: "--details-bin could not be read")
        }
        if let code {
            self.init(code: code)
        } else if let httpStatus {
            self.init(httpStatus: httpStatus)
        } else {
            self.init(code: StatusCode(rawValue: Int(rpcStatus.code)))
        }
        self.rpcStatus = rpcStatus
        self.details = call.details
    }

    /// Who has to act on a status with this code (and origin: an interrupted refresh is always
    /// the server/network family).
    var family: ErrorFamily { error.family }

    /// Whether sending the same request again can succeed without the caller changing anything
    /// (``FleetEngineError/isRetryable``: the server/network family, or RESOURCE_EXHAUSTED with a
    /// RetryInfo detail).
    var isRetryable: Bool { error.isRetryable }

    /// The wait the first RetryInfo detail asks for before a retry, if there is one.
    var retryDelay: Duration? { error.retryDelay }

    /// ``retryDelay`` as proto3 JSON writes a `google.protobuf.Duration`: `30s`, `1.500s`.
    var retryDelayText: String? {
        retryDelay.map(Self.durationText)
    }

    /// The HTTP status the Google Cloud error model gives the code (``StatusCode/httpStatus``).
    var httpStatus: Int { code.httpStatus }

    /// The code inside ``rpcStatus`` when it differs from the code explained.
    var conflictingDetailsCode: StatusCode? {
        guard let rpcStatus, Int(rpcStatus.code) != code.rawValue else { return nil }
        return StatusCode(rawValue: Int(rpcStatus.code))
    }

    private var error: FleetEngineError {
        FleetEngineError(code: code, message: rpcStatus?.message ?? "", details: details, origin: origin ?? .status)
    }

    /// Whole seconds, then 3, 6 or 9 fractional digits when the fraction needs them (the proto3
    /// JSON form of `google.protobuf.Duration`).
    ///
    /// Any duration is printed: a RetryInfo can say more whole seconds than an `Int64` holds (its
    /// `seconds` at `Int64.max` and `nanos` above a second), which `Duration.components` traps on.
    static func durationText(_ duration: Duration) -> String {
        let attoseconds = duration.attoseconds
        let attosecondsPerSecond: UInt128 = 1_000_000_000_000_000_000
        let seconds = attoseconds.magnitude / attosecondsPerSecond
        let nanoseconds = attoseconds.magnitude % attosecondsPerSecond / 1_000_000_000
        let sign = attoseconds < 0 ? "-" : ""
        guard nanoseconds != 0 else { return "\(sign)\(seconds)s" }
        let digits: Int
        let fraction: UInt128
        if nanoseconds % 1_000_000 == 0 {
            (digits, fraction) = (3, nanoseconds / 1_000_000)
        } else if nanoseconds % 1_000 == 0 {
            (digits, fraction) = (6, nanoseconds / 1_000)
        } else {
            (digits, fraction) = (9, nanoseconds)
        }
        let text = String(fraction)
        return "\(sign)\(seconds)." + String(repeating: "0", count: digits - text.count) + text + "s"
    }
}
