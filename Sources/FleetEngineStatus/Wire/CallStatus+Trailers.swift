public import FleetEngineCodec

extension CallStatus {
    /// The status as a `google.rpc.Status`: the code, the message and the details. A code that
    /// does not fit the message's `int32` is UNKNOWN there, as gRPC counts any code it does not
    /// define (cutting it to 32 bits could make it another code).
    public var rpcStatusMessage: RPCStatus {
        var status = RPCStatus()
        status.code = Int32(exactly: code.rawValue) ?? Int32(StatusCode.unknown.rawValue)
        status.message = message
        status.details = details.map(\.anyMessage)
        return status
    }

    /// The trailer values a server sends for this status (gRPC's doc/PROTOCOL-HTTP2.md, "Responses"):
    /// `grpc-status`, `grpc-message` percent-encoded (nil when the message is empty), and
    /// `grpc-status-details-bin` as unpadded base64 of the ``rpcStatusMessage`` (nil without details).
    ///
    /// `grpc-status` is 1*DIGIT, and readers take it as an `int32`: a code that is negative or
    /// larger goes out as UNKNOWN, and the details say the same code, as Google's clients require.
    public var trailerValues: (grpcStatus: String, grpcMessage: String?, grpcStatusDetailsBin: String?) {
        let message = self.message.isEmpty ? nil : StatusMessageText.encode(self.message)
        let sent = (0...Int(Int32.max)).contains(code.rawValue) ? code : .unknown
        var detailsBin: String?
        if !details.isEmpty {
            var status = rpcStatusMessage
            status.code = Int32(sent.rawValue)
            detailsBin = Base64.encode(status.serializedBytes(), padded: false)
        }
        return (String(sent.rawValue), message, detailsBin)
    }
}

extension FleetEngineError {
    /// The error as the status a call ends with.
    public var callStatus: CallStatus {
        var status = CallStatus(code: code, message: message, details: details, origin: origin)
        status.rpcStatus = rpcStatus
        status.statusDetailsProblem = statusDetailsProblem
        return status
    }
}
