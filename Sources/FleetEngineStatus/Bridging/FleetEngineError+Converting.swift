import FleetEngineCodec
import Foundation

extension FleetEngineError {
    /// Any error as a ``FleetEngineError``, so that every failure reaches the caller as one type.
    ///
    /// - a ``FleetEngineError`` stays as it is;
    /// - an error of another library that conforms to ``FleetEngineErrorConvertible`` is what its
    ///   ``FleetEngineErrorConvertible/fleetEngineError`` says: a grpc-swift `RPCError` keeps its code,
    ///   message and details once the `FleetEngineGRPCCore` module is linked;
    /// - a `CancellationError` is CANCELLED, refused locally;
    /// - a `CodecError` (a message that does not decode) is INTERNAL, as gRPC reports a response
    ///   it cannot parse;
    /// - an `NSError` is read as ``init(_:)-(NSError)`` reads it: one of domain `io.grpc` keeps its
    ///   code, one of any other domain is UNKNOWN;
    /// - any other error is UNKNOWN, with its description as the message.
    ///
    /// The original error is the ``cause`` whenever it is not itself the result (for an `NSError`,
    /// its ``BridgedNSError`` parts).
    public init(converting error: any Error) {
        switch error {
        case let error as FleetEngineError:
            self = error
        case let error as any FleetEngineErrorConvertible:
            self = error.fleetEngineError
        case let error as CancellationError:
            self.init(code: .cancelled, message: "the call was cancelled", origin: .local, cause: error)
        case let error as CodecError:
            self.init(
                code: .internalError, message: "a message could not be decoded: \(error)", origin: .malformedResponse,
                cause: error)
        default:
            let bridged = error as NSError
            // An NSError of any domain goes through init(_: NSError), which keeps its Sendable parts
            // and words the message; its own description is a dump of the userInfo dictionary.
            if bridged.domain == Self.grpcErrorDomain || type(of: error) is NSError.Type {
                self.init(bridged)
            } else {
                self.init(code: .unknown, message: String(describing: error), origin: .bridged, cause: error)
            }
        }
    }
}
