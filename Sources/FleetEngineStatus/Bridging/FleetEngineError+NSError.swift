import Foundation

extension FleetEngineError: CustomNSError, LocalizedError {
    /// `io.grpc`, the domain of the Consumer SDK's gRPC errors.
    public static var errorDomain: String { grpcErrorDomain }

    /// The domain gRPC's Objective-C library gives its errors, and the Consumer SDK with it.
    public static let grpcErrorDomain = "io.grpc"

    /// The gRPC status code, as a number (a code gRPC does not define stays as it arrived).
    public var errorCode: Int { code.rawValue }

    /// The localized texts, so that `(error as NSError).localizedDescription` and its siblings say
    /// what ``errorDescription``, ``failureReason`` and ``recoverySuggestion`` say.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: errorDescription ?? code.summary,
            NSLocalizedFailureReasonErrorKey: failureReason ?? code.meaning,
            NSLocalizedRecoverySuggestionErrorKey: recoverySuggestion ?? code.recoverySuggestion,
        ]
        if let cause { info[NSUnderlyingErrorKey] = cause as NSError }
        return info
    }

    /// What happened: the code's summary, then the server's message when it sent one.
    public var errorDescription: String? {
        message.isEmpty ? code.summary : "\(code.summary) \(message)"
    }

    /// Why it happens when following a trip (``StatusCode/meaning``), and the server's
    /// `ErrorInfo` reason when there is one.
    public var failureReason: String? {
        for detail in details {
            if case .errorInfo(let info) = detail, !info.reason.isEmpty {
                return "\(code.meaning) Reason: \(info.reason) (\(info.domain))."
            }
        }
        return code.meaning
    }

    /// What to do (``StatusCode/recoverySuggestion``), with the server's requested retry delay.
    public var recoverySuggestion: String? {
        guard let retryDelay else { return code.recoverySuggestion }
        return "\(code.recoverySuggestion) The server asked for a delay of \(retryDelay) before a retry."
    }

    /// Reads an `NSError`: one of domain `io.grpc` keeps its code (and its localized description as
    /// the message); one of any other domain becomes UNKNOWN, with the `NSError` as the cause.
    public init(_ error: NSError) {
        if error.domain == Self.grpcErrorDomain {
            self.init(
                code: StatusCode(rawValue: error.code),
                message: error.userInfo[NSLocalizedDescriptionKey] as? String ?? "",
                origin: .bridged,
                cause: BridgedNSError(domain: error.domain, code: error.code, description: error.localizedDescription)
            )
        } else {
            self.init(
                code: .unknown,
                message: "\(error.domain) error \(error.code): \(error.localizedDescription)",
                origin: .bridged,
                cause: BridgedNSError(domain: error.domain, code: error.code, description: error.localizedDescription)
            )
        }
    }
}

/// The parts of an `NSError` that a ``FleetEngineError`` keeps as its cause (`NSError` itself is
/// not `Sendable`, so it cannot be kept).
public struct BridgedNSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error's domain.
    public var domain: String
    /// The error's code.
    public var code: Int
    /// Its localized description.
    public var description: String
}
