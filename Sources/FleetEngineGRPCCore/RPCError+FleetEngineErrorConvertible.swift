public import FleetEngineStatus
public import GRPCCore

extension RPCError: FleetEngineErrorConvertible {
    /// The error as `FleetEngineError(_:)` reads it: its code, its message, the `google.rpc.Status`
    /// details of its `grpc-status-details-bin` metadata, and the `RPCError` itself as the cause.
    public var fleetEngineError: FleetEngineError { FleetEngineError(self) }
}
