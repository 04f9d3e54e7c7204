import FleetEngineCodec
import FleetEngineTestSupport
import Foundation

/// `grpc-status-details-bin` values built from codec messages, for `fleettrips status --details-bin`.
enum StatusSamples {
    /// `ErrorInfo(reason: "RATE_LIMIT_EXCEEDED", domain: "fleetengine.googleapis.com",
    /// metadata: {"quota_limit": "TripRequestsPerMinute"})`.
    static var errorInfo: ErrorInfo {
        var info = ErrorInfo()
        info.reason = "RATE_LIMIT_EXCEEDED"
        info.domain = "fleetengine.googleapis.com"
        info.metadata = ["quota_limit": "TripRequestsPerMinute"]
        return info
    }

    /// `RetryInfo(retry_delay: 1.5s)`.
    static var retryInfo: RetryInfo {
        var delay = ProtobufDuration()
        delay.seconds = 1
        delay.nanos = 500_000_000
        var info = RetryInfo()
        info.retryDelay = delay
        return info
    }

    /// `BadRequest` with one field violation.
    static var badRequest: BadRequest {
        var violation = BadRequest.FieldViolation()
        violation.field = "trip.number_of_passengers"
        violation.description = "must be at least 1"
        var request = BadRequest()
        request.fieldViolations = [violation]
        return request
    }

    /// The proto3 JSON of the three details, as `google.protobuf.Any`.
    static let errorInfoJSON =
        #"{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","#
        + #""domain":"fleetengine.googleapis.com","metadata":{"quota_limit":"TripRequestsPerMinute"}}"#
    static let retryInfoJSON = #"{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.500s"}"#
    static let badRequestJSON =
        #"{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"#
        + #""trip.number_of_passengers","description":"must be at least 1"}]}"#

    /// `message` packed in a `google.protobuf.Any` with Google's type URL prefix.
    static func packed(_ message: some ProtobufMessage) -> AnyMessage {
        SampleDetails.any("type.googleapis.com/" + type(of: message).protoMessageName, message.serializedBytes())
    }

    /// RESOURCE_EXHAUSTED, "quota exhausted", with ErrorInfo, RetryInfo and BadRequest.
    static var quotaStatus: RPCStatus {
        SampleDetails.status(
            code: 8, message: "quota exhausted",
            details: [packed(errorInfo), packed(retryInfo), packed(badRequest)])
    }

    /// ``quotaStatus`` with a detail of `0xff` bytes after it, as many as make its base64 need padding:
    /// a status whose standard, URL-safe, padded and unpadded forms all differ.
    static var awkwardStatus: RPCStatus {
        var status = quotaStatus
        let plain = status.details
        for count in 6...8 {
            status.details =
                plain + [SampleDetails.any("type.example.com/example.Bytes", Array(repeating: 0xff, count: count))]
            if status.serializedBytes().count % 3 != 0 { break }
        }
        return status
    }

    /// How the base64 of a serialized status is written.
    enum Form {
        /// Standard alphabet, padded.
        case padded
        /// Standard alphabet, no padding: what gRPC servers send in `-bin` headers.
        case unpadded
        /// URL-safe alphabet, no padding.
        case urlSafe
    }

    /// The base64 of `status`, in `form`.
    static func base64(_ status: RPCStatus, _ form: Form = .unpadded) -> String {
        base64(status.serializedBytes(), form)
    }

    /// The base64 of `bytes`, in `form`.
    static func base64(_ bytes: [UInt8], _ form: Form = .padded) -> String {
        let padded = Data(bytes).base64EncodedString()
        switch form {
        case .padded:
            return padded
        case .unpadded:
            return String(padded.filter { $0 != "=" })
        case .urlSafe:
            let unpadded = padded.filter { $0 != "=" }
            return String(unpadded.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        }
    }
}
