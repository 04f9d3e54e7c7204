package import FleetEngineCodec
package import FleetEngineStatus

extension FleetEngineError {
    /// The `ErrorInfo` domain of every token failure, Fleet Engine's.
    package static let tokenErrorDomain = "fleetengine.googleapis.com"

    /// UNAUTHENTICATED for a token that was refused, with an `ErrorInfo` carrying the failure's
    /// reason (`TOKEN_EXPIRED`) and metadata, and the ``JWTError`` as the cause.
    ///
    /// - Parameter methodName: the full name of the call the token came with
    ///   (`maps.fleetengine.v1.TripService.GetTrip`), added to the metadata when known.
    package static func rejectedToken(_ error: JWTError, methodName: String? = nil) -> FleetEngineError {
        FleetEngineError(
            code: .unauthenticated,
            message: error.message,
            details: [
                .errorInfo(tokenErrorInfo(reason: error.code.reason, metadata: error.metadata, methodName: methodName))
            ],
            cause: error
        )
    }

    /// An `ErrorInfo` in Fleet Engine's domain with `reason`, `metadata`, the service and, when
    /// known, the method.
    package static func tokenErrorInfo(reason: String, metadata: [String: String], methodName: String?) -> ErrorInfo {
        var info = ErrorInfo()
        info.reason = reason
        info.domain = tokenErrorDomain
        info.metadata = metadata
        // Google's ErrorInfo names the service and the method this way (google/rpc/error_details.proto
        // shows `"service": "pubsub.googleapis.com"`), so clients that read them find them.
        info.metadata["service"] = info.domain
        if let methodName { info.metadata["method"] = methodName }
        return info
    }
}
