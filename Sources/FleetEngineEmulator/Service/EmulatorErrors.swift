import FleetEngineCodec
import FleetEngineStatus

/// The errors the emulator answers with, shaped as Fleet Engine shapes them: a status code, a message,
/// and `google.rpc` details in `grpc-status-details-bin` (Google Cloud's error model).
enum EmulatorErrors {
    /// The domain of the `ErrorInfo` details the emulator sends.
    static let domain = "fleetengine.googleapis.com"

    /// INVALID_ARGUMENT with a `BadRequest` field violation naming the request field.
    static func invalidArgument(field: String, _ description: String) -> FleetEngineError {
        FleetEngineError.invalidArgument(field: field, description)
    }

    /// NOT_FOUND with an `ErrorInfo` (reason `TRIP_NOT_FOUND`) and a `ResourceInfo` naming the trip.
    static func tripNotFound(_ name: TripName) -> FleetEngineError {
        var info = ErrorInfo()
        info.reason = "TRIP_NOT_FOUND"
        info.domain = domain
        info.metadata = ["trip": name.description]
        var resource = ResourceInfo()
        resource.resourceType = "maps.fleetengine.v1.Trip"
        resource.resourceName = name.description
        resource.description = "the trip does not exist"
        return FleetEngineError(
            code: .notFound, message: "trip \(name) not found", details: [.errorInfo(info), .resourceInfo(resource)])
    }

    /// A code with an `ErrorInfo` detail.
    static func withReason(
        _ code: StatusCode,
        reason: String,
        _ message: String,
        metadata: [String: String] = [:]
    ) -> FleetEngineError {
        var info = ErrorInfo()
        info.reason = reason
        info.domain = domain
        info.metadata = metadata
        return FleetEngineError(code: code, message: message, details: [.errorInfo(info)])
    }
}
