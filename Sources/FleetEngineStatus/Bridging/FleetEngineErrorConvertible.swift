/// An error of another library that knows which ``FleetEngineError`` it is.
///
/// ``FleetEngineError/init(converting:)`` asks an error that conforms for its
/// ``fleetEngineError`` instead of reading it as UNKNOWN. The `FleetEngineGRPCCore` module
/// conforms grpc-swift's `RPCError`, so that this module needs no grpc-swift of its own; an
/// application can conform the errors of its own transport the same way.
public protocol FleetEngineErrorConvertible: Error {
    /// The error as a ``FleetEngineError``: its gRPC code, its message, the details it carries,
    /// and, as the ``FleetEngineError/cause``, the error itself.
    var fleetEngineError: FleetEngineError { get }
}
