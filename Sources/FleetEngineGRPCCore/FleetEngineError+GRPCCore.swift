import FleetEngineCodec
public import FleetEngineStatus
public import GRPCCore

extension FleetEngineError: RPCErrorConvertible {
    /// Reads a grpc-swift `RPCError`: its code, its message, and the `google.rpc.Status` details
    /// that a server put in `grpc-status-details-bin` (grpc-swift hands binary metadata over decoded).
    /// The `RPCError` itself is kept as the `cause`.
    public init(_ error: RPCError) {
        self.init(
            code: StatusCode(rawValue: error.code.rawValue), message: error.message, origin: .bridged, cause: error)
        for bytes in error.metadata[binaryValues: Self.statusDetailsKey] {
            readStatusDetails(bytes)
            break
        }
    }

    /// Reads a grpc-swift `Status`; nil when it is OK, which is no error.
    public init?(_ status: Status) {
        guard status.code != .ok else { return nil }
        self.init(code: StatusCode(rawValue: status.code.rawValue), message: status.message, origin: .bridged)
    }

    /// The code a grpc-swift server ends the call with. A code gRPC does not define, or OK (which
    /// is no error), goes out as UNKNOWN, since grpc-swift's codes are a closed set.
    public var rpcErrorCode: RPCError.Code {
        Status.Code(rawValue: code.rawValue).flatMap { RPCError.Code($0) } ?? .unknown
    }

    /// The message a grpc-swift server sends as `grpc-message`.
    public var rpcErrorMessage: String { message }

    /// `grpc-status-details-bin` with the `details` as a `google.rpc.Status`, when there are any.
    /// Its code is the one sent as `grpc-status` (`rpcErrorCode`): Google's clients refuse a
    /// status whose details name another code (grpcio-status's `rpc_status.from_call` raises).
    public var rpcErrorMetadata: Metadata {
        guard !details.isEmpty else { return [:] }
        var status = callStatus.rpcStatusMessage
        status.code = Int32(rpcErrorCode.rawValue)
        var metadata = Metadata()
        metadata.addBinary(status.serializedBytes(), forKey: Self.statusDetailsKey)
        return metadata
    }

    /// The error underneath, if any.
    public var rpcErrorCause: (any Error)? { cause }
}
