import FleetEngineCodec
public import Foundation
public import FoundationEssentials

extension FleetEngineError: CustomNSError, LocalizedError {
    /// `io.grpc`, the domain of the Consumer SDK's gRPC errors.
    public static var errorDomain: String { grpcErrorDomain }

    /// The domain gRPC's Objective-C library gives its errors, and the Consumer SDK with it.
    public static let grpcErrorDomain = "io.grpc"

    /// The gRPC status code, as a number (a code gRPC does not define stays as it arrived).
    public var errorCode: Int { code.rawValue }

    /// The `userInfo` key of the trailers in gRPC's Objective-C library's errors (`kGRPCTrailersKey`):
    /// a dictionary of metadata, binary (`-bin`) values as `Data`, so `grpc-status-details-bin` too.
    public static let trailersUserInfoKey = "io.grpc.TrailersKey"

    /// The `userInfo` key of ``message`` as it is: the localized description puts the code's
    /// summary before it, so reading that back would not give the same message.
    public static let messageUserInfoKey = "FleetEngineErrorMessage"

    /// The localized texts, so that `(error as NSError).localizedDescription` and its siblings say
    /// what ``errorDescription``, ``failureReason`` and ``recoverySuggestion`` say; the message
    /// under ``messageUserInfoKey``; and the details, when there are any, as gRPC's Objective-C
    /// library hands them over: `grpc-status-details-bin` in the trailers (``trailersUserInfoKey``).
    /// ``init(_:)-(NSError)`` reads all of them back.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: errorDescription ?? code.summary,
            NSLocalizedFailureReasonErrorKey: failureReason ?? code.meaning,
            NSLocalizedRecoverySuggestionErrorKey: recoverySuggestion ?? code.recoverySuggestion,
            Self.messageUserInfoKey: message,
        ]
        if !details.isEmpty {
            let bytes = callStatus.rpcStatusMessage.serializedBytes()
            info[Self.trailersUserInfoKey] = [Self.statusDetailsKey: Data(bytes)]
        }
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

    /// Reads an `NSError`: one of domain `io.grpc` keeps its code, its message (``messageUserInfoKey``
    /// when it has one, else its localized description, as gRPC's Objective-C library puts it there)
    /// and the details of `grpc-status-details-bin` in its trailers (``trailersUserInfoKey``); one of
    /// any other domain becomes UNKNOWN, with the `NSError` as the cause.
    public init(_ error: NSError) {
        if error.domain == Self.grpcErrorDomain {
            self.init(
                code: StatusCode(rawValue: error.code),
                message: error.userInfo[Self.messageUserInfoKey] as? String
                    ?? error.userInfo[NSLocalizedDescriptionKey] as? String ?? "",
                origin: .bridged,
                cause: BridgedNSError(domain: error.domain, code: error.code, description: error.localizedDescription)
            )
            let trailers = error.userInfo[Self.trailersUserInfoKey] as? [String: Any]
            if let data = trailers?[Self.statusDetailsKey] as? Data { readStatusDetails([UInt8](data)) }
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
