import FleetEngineCodec
import FleetEngineStatus

extension FleetEngineError {
    /// UNAUTHENTICATED for a token that was refused, with an `ErrorInfo` carrying the failure's
    /// reason (`TOKEN_EXPIRED`) and metadata, and the ``JWTError`` as the cause.
    ///
    /// - Parameter method: the call the token came with, added to the metadata when known.
    static func tokenRejected(_ error: JWTError, method: TripServiceMethod? = nil) -> FleetEngineError {
        FleetEngineError(
            code: .unauthenticated,
            message: error.message,
            details: [.errorInfo(authErrorInfo(reason: error.code.reason, metadata: error.metadata, method: method))],
            cause: error
        )
    }

    /// PERMISSION_DENIED for a valid token that does not cover the call, with an `ErrorInfo`
    /// carrying `reason` (`TRIP_ID_MISMATCH`, `CONSUMER_ROLE_WRITE`) and the method.
    static func accessDenied(
        reason: String,
        message: String,
        method: TripServiceMethod,
        metadata: [String: String] = [:]
    ) -> FleetEngineError {
        FleetEngineError(
            code: .permissionDenied,
            message: message,
            details: [.errorInfo(authErrorInfo(reason: reason, metadata: metadata, method: method))]
        )
    }

    private static func authErrorInfo(
        reason: String,
        metadata: [String: String],
        method: TripServiceMethod?
    ) -> ErrorInfo {
        var info = ErrorInfo()
        info.reason = reason
        info.domain = "fleetengine.googleapis.com"
        info.metadata = metadata
        // Google's ErrorInfo names the service and the method this way (google/rpc/error_details.proto
        // shows `"service": "pubsub.googleapis.com"`), so clients that read them find them.
        info.metadata["service"] = info.domain
        if let method { info.metadata["method"] = method.fullName }
        return info
    }
}
