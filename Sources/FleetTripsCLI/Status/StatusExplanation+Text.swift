import FleetEngineCodec
import FleetEngineStatus

extension StatusExplanation {
    /// The explanation for a person, in lines (no final line feed): the code, its name and what
    /// happened first, then one labelled line per fact, then the details one per line. Control
    /// characters in the message and details (``TerminalText``) are escaped.
    var text: String {
        var lines = ["\(code) (\(code.rawValue)): \(code.summary)"]
        if !code.isKnown {
            lines.append(
                Self.line("note", "\(code.rawValue) is not a code gRPC defines (0 to 16); it counts as UNKNOWN"))
        }
        if let mappedFromHTTPStatus {
            lines.append(
                Self.line("from HTTP", "\(mappedFromHTTPStatus), by gRPC's mapping for a response without grpc-status"))
        }
        lines.append(Self.line("family", "\(family) (\(familyRole))"))
        lines.append(Self.line("meaning", code.meaning))
        lines.append(Self.line("what to do", code.recoverySuggestion))
        lines.append(Self.line("retry helps", retryAdvice))
        lines.append(Self.line("HTTP status", "\(httpStatus), as the Google Cloud error model maps this code"))
        if let rpcStatus {
            if let other = conflictingDetailsCode {
                lines.append(
                    Self.line(
                        "note",
                        "the google.rpc.Status says \(other) (\(other.rawValue)); the code given takes precedence"))
            }
            if !rpcStatus.message.isEmpty {
                lines.append(Self.line("message", rpcStatus.message))
            }
            if details.isEmpty {
                lines.append(Self.line("details", "none"))
            } else {
                lines.append("details:")
                lines += details.map { "  - " + $0.textLine }
            }
        }
        return Self.terminalLines(lines)
    }

    /// Who acts on this family, in a few words.
    var familyRole: String {
        switch family {
        case .serverOrNetwork: "the library recovers by itself"
        case .client: "the caller must act"
        case .conflict: "the request does not fit the trip's current state"
        case .success: "not a failure"
        default: "the service failed; the caller cannot correct it"
        }
    }

    /// Whether a retry can help, and on what condition.
    var retryAdvice: String {
        if isRetryable {
            if let retryDelayText { return "yes, after \(retryDelayText) (the server's RetryInfo)" }
            return "yes: the same request can succeed when sent again"
        }
        if code.effective == .resourceExhausted {
            return "not before the server says when (a RetryInfo detail); slow down"
        }
        switch family {
        case .success: return "no: nothing failed"
        case .client: return "no: the same request fails again until the caller changes something"
        case .conflict: return "no: the same request fails again until the trip's state allows it"
        default: return "no: retrying is not known to fix it"
        }
    }

    /// `lines` joined by line feeds, each with its control characters escaped: the message and the
    /// details are the server's words, which must not move the cursor, clear the screen or add lines.
    static func terminalLines(_ lines: [String]) -> String {
        lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
    }

    /// `label:` padded to a column, then the value.
    static func line(_ label: String, _ value: String) -> String {
        let name = label + ":"
        return name + String(repeating: " ", count: max(1, 14 - name.count)) + value
    }
}
