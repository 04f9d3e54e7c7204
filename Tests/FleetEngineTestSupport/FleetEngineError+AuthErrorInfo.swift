public import FleetEngineCodec
public import FleetEngineStatus

extension FleetEngineError {
    /// The first `ErrorInfo` detail: where a refused token's reason (`TOKEN_EXPIRED`,
    /// `TRIP_ID_MISMATCH`) and the method are.
    public var authErrorInfo: ErrorInfo? {
        for case .errorInfo(let info) in details { return info }
        return nil
    }
}
