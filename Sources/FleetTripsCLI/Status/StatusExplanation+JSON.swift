import FleetEngineCodec
import FleetEngineStatus

extension StatusExplanation {
    /// The explanation as one JSON object on one line (no line feed), the form scripts read.
    ///
    /// Members, in this order:
    /// - `code`: the number; `name`: the canonical name, or null for a number gRPC does not define;
    /// - `family`: ``ErrorFamily``'s printed name (`server-network`, `client`, `conflict`,
    ///   `service-fault`, `success`);
    /// - `summary`, `meaning`, `recoverySuggestion`: the texts of ``StatusCode``;
    /// - `retryable`: ``isRetryable``; `retryDelay`: ``retryDelayText``, only when a RetryInfo
    ///   detail asks for a wait;
    /// - `httpStatus`: the Google Cloud error model's HTTP status for the code;
    /// - `httpStatusIn`: the HTTP status the code was mapped from, only when given as one;
    /// - `message` and `details`: the `google.rpc.Status`'s message and its details, each in the
    ///   proto3 JSON form of `google.protobuf.Any`, only when a `grpc-status-details-bin` was given
    ///   or the explanation is of a failed call;
    /// - `origin`: where a failed call's status came from (``FleetEngineError/Origin``'s printed
    ///   form, e.g. `gRPC status`, `refused locally`), only for a failed call.
    var json: String {
        var object = JSONObjectWriter()
        object.member("code", .integer(code.rawValue))
        object.member("name", code.name.map { .string($0) } ?? .null)
        object.member("family", .string(family.description))
        object.member("summary", .string(code.summary))
        object.member("meaning", .string(code.meaning))
        object.member("recoverySuggestion", .string(code.recoverySuggestion))
        object.member("retryable", .boolean(isRetryable))
        if let retryDelayText {
            object.member("retryDelay", .string(retryDelayText))
        }
        object.member("httpStatus", .integer(httpStatus))
        if let mappedFromHTTPStatus {
            object.member("httpStatusIn", .integer(mappedFromHTTPStatus))
        }
        if let rpcStatus {
            object.member("message", .string(rpcStatus.message))
            object.member("details", .jsonArray(details.map(\.jsonObject)))
        }
        if let origin {
            object.member("origin", .string(origin.description))
        }
        return object.result
    }
}
