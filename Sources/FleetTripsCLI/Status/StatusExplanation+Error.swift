import FleetEngineCodec
import FleetEngineStatus

extension StatusExplanation {
    /// The explanation of a call that failed with `error`: its code, its message and details as
    /// the server sent them (or as the client made them, for a failure of its own), and where the
    /// status came from.
    ///
    /// ``json`` then always has `message`, `details` and `origin`, so a script that reads the
    /// object finds the same members whether the server or the client refused the call.
    init(error: FleetEngineError) {
        self.init(code: error.code)
        // grpc-status and grpc-message are authoritative (gRPC's PROTOCOL-HTTP2, "Responses");
        // the google.rpc.Status copy only supplies the details when the server sent one.
        var status = error.rpcStatus ?? RPCStatus()
        status.code = Int32(truncatingIfNeeded: error.code.rawValue)
        status.message = error.message
        if error.rpcStatus == nil {
            status.details = error.details.map(\.anyMessage)
        }
        self.rpcStatus = status
        self.details = error.details
        self.origin = error.origin
    }

    /// A failed call for a person, in lines (no final line feed): the code and the message first,
    /// then who has to act, what to do, whether a retry helps, where the status came from, and
    /// the details one per line, with control characters escaped (``terminalLines(_:)``).
    var failureText: String {
        let message = rpcStatus?.message ?? ""
        var lines = ["\(code) (\(code.rawValue)): " + (message.isEmpty ? code.summary : message)]
        lines.append(Self.line("family", "\(family) (\(familyRole))"))
        lines.append(Self.line("what to do", code.recoverySuggestion))
        lines.append(Self.line("retry helps", retryAdvice))
        if let origin {
            lines.append(Self.line("origin", origin.description))
        }
        if !details.isEmpty {
            lines.append("details:")
            lines += details.map { "  - " + $0.textLine }
        }
        return Self.terminalLines(lines)
    }
}
