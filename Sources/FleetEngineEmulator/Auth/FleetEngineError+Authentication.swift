import FleetEngineAuth
import FleetEngineCodec
import FleetEngineStatus

extension FleetEngineError {
    /// UNAUTHENTICATED for a token that was refused, with an `ErrorInfo` carrying the failure's
    /// reason (`TOKEN_EXPIRED`) and metadata, and the `JWTError` as the cause.
    ///
    /// - Parameter method: the call the token came with, added to the metadata when known.
    static func tokenRejected(_ error: JWTError, method: TripServiceMethod? = nil) -> FleetEngineError {
        rejectedToken(error, methodName: method?.fullName)
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
            details: [.errorInfo(tokenErrorInfo(reason: reason, metadata: metadata, methodName: method.fullName))]
        )
    }
}
