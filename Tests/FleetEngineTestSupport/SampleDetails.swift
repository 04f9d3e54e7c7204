public import FleetEngineCodec
public import FleetEngineStatus

/// One detail of each standard type with every field set, built in Swift (the fixtures hold
/// Python's); for the tests that need a detail without caring where it came from.
public enum SampleDetails {
    public static var errorInfo: ErrorInfo {
        var info = ErrorInfo()
        info.reason = "TRIP_NOT_FOUND"
        info.domain = "fleetengine.googleapis.com"
        info.metadata = ["tripId": "trip-1", "providerId": "fleet-demo"]
        return info
    }

    public static func retryInfo(seconds: Int64, nanos: Int32) -> RetryInfo {
        var delay = ProtobufDuration()
        delay.seconds = seconds
        delay.nanos = nanos
        var info = RetryInfo()
        info.retryDelay = delay
        return info
    }

    public static var badRequest: BadRequest {
        var violation = BadRequest.FieldViolation()
        violation.field = "trip.pickup_point"
        violation.description = "missing"
        violation.reason = "REQUIRED_FIELD"
        violation.localizedMessage = localizedMessage
        var request = BadRequest()
        request.fieldViolations = [violation]
        return request
    }

    public static var quotaFailure: QuotaFailure {
        var violation = QuotaFailure.Violation()
        violation.subject = "project:fleet-demo"
        violation.description = "Read requests per minute"
        violation.apiService = "fleetengine.googleapis.com"
        violation.quotaMetric = "fleetengine.googleapis.com/read_requests"
        violation.quotaID = "ReadRequestsPerMinute"
        violation.quotaDimensions = ["region": "us-west1"]
        violation.quotaValue = 600
        violation.futureQuotaValue = 1200
        var failure = QuotaFailure()
        failure.violations = [violation]
        return failure
    }

    public static var preconditionFailure: PreconditionFailure {
        var violation = PreconditionFailure.Violation()
        violation.type = "TRIP_STATE"
        violation.subject = "providers/fleet-demo/trips/trip-1"
        violation.description = "The trip is complete."
        var failure = PreconditionFailure()
        failure.violations = [violation]
        return failure
    }

    public static var resourceInfo: ResourceInfo {
        var info = ResourceInfo()
        info.resourceType = "fleetengine.googleapis.com/Trip"
        info.resourceName = "providers/fleet-demo/trips/trip-1"
        info.owner = "project:fleet-demo"
        info.description = "No such trip."
        return info
    }

    public static var help: Help {
        var link = Help.Link()
        link.description = "Errors"
        link.url = "https://example.com/errors"
        var help = Help()
        help.links = [link]
        return help
    }

    public static var localizedMessage: LocalizedMessage {
        var message = LocalizedMessage()
        message.locale = "fr-FR"
        message.message = "Trajet introuvable — réessayez"
        return message
    }

    public static var debugInfo: DebugInfo {
        var info = DebugInfo()
        info.stackEntries = ["frame one", "frame two"]
        info.detail = "deadline in storage"
        return info
    }

    public static var requestInfo: RequestInfo {
        var info = RequestInfo()
        info.requestID = "req-123"
        info.servingData = "cell-7"
        return info
    }

    /// The ten typed details, in the order of ``typeNames``.
    public static var all: [StatusDetail] {
        [
            .errorInfo(errorInfo), .retryInfo(retryInfo(seconds: 2, nanos: 500_000_000)), .badRequest(badRequest),
            .quotaFailure(quotaFailure), .preconditionFailure(preconditionFailure), .resourceInfo(resourceInfo),
            .help(help), .localizedMessage(localizedMessage), .debugInfo(debugInfo), .requestInfo(requestInfo),
        ]
    }

    public static let typeNames = [
        "google.rpc.ErrorInfo", "google.rpc.RetryInfo", "google.rpc.BadRequest", "google.rpc.QuotaFailure",
        "google.rpc.PreconditionFailure", "google.rpc.ResourceInfo", "google.rpc.Help",
        "google.rpc.LocalizedMessage", "google.rpc.DebugInfo", "google.rpc.RequestInfo",
    ]

    /// A detail of a type outside error_details.proto: a `google.protobuf.Duration` of 3 s.
    public static var durationAny: AnyMessage {
        var any = AnyMessage()
        any.typeURL = "type.googleapis.com/google.protobuf.Duration"
        any.value = [0x08, 0x03]
        return any
    }

    /// An `Any` with the given type URL and value.
    public static func any(_ typeURL: String, _ value: [UInt8]) -> AnyMessage {
        var any = AnyMessage()
        any.typeURL = typeURL
        any.value = value
        return any
    }

    /// A `google.rpc.Status` with these parts.
    public static func status(code: Int32, message: String, details: [AnyMessage]) -> RPCStatus {
        var status = RPCStatus()
        status.code = code
        status.message = message
        status.details = details
        return status
    }

    /// A `google.rpc.Status` with these parts, serialized by our codec.
    public static func statusBytes(code: Int32, message: String, details: [StatusDetail]) -> [UInt8] {
        status(code: code, message: message, details: details.map(\.anyMessage)).serializedBytes()
    }
}
