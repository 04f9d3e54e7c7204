public import FleetEngineCodec

/// One entry of `google.rpc.Status.details`, as a typed Swift value.
///
/// The ten standard detail messages of google/rpc/error_details.proto each have a case. A detail of
/// any other type is kept whole as ``other(_:)``; a detail that names a standard type but whose bytes
/// do not decode as it is kept whole too, with the reason, as ``undecodable(_:reason:)``. Nothing a
/// server sent is dropped (unknown fields included), and ``anyMessage`` gives back the entry: byte for
/// byte as Google's libraries pack it, but under the `type.googleapis.com/` prefix whatever host the
/// type URL named.
public enum StatusDetail: Sendable, Hashable {
    /// Why the call failed: a machine-readable reason, the domain that produced it, and metadata.
    case errorInfo(ErrorInfo)
    /// How long to wait before retrying.
    case retryInfo(RetryInfo)
    /// Which fields of the request were wrong, and why.
    case badRequest(BadRequest)
    /// Which quota checks failed.
    case quotaFailure(QuotaFailure)
    /// Which preconditions failed.
    case preconditionFailure(PreconditionFailure)
    /// Which resource the error is about.
    case resourceInfo(ResourceInfo)
    /// Links to documentation about the error.
    case help(Help)
    /// An error message in the user's language.
    case localizedMessage(LocalizedMessage)
    /// Server-side debugging information.
    case debugInfo(DebugInfo)
    /// The request's id, for a support ticket.
    case requestInfo(RequestInfo)
    /// A detail of a type this layer does not model, as it arrived.
    case other(AnyMessage)
    /// A detail whose type URL names a standard type but whose bytes do not decode as that type.
    case undecodable(AnyMessage, reason: CodecError)

    /// Reads one `google.protobuf.Any` from `google.rpc.Status.details`.
    ///
    /// The type is what follows the last `/` of the type URL, as protobuf's `Any` defines it, so
    /// `type.googleapis.com/google.rpc.ErrorInfo` and any other host prefix are both understood. A
    /// type URL without a `/` names no type (`any.proto` requires one; Google's Python `Any.Is`
    /// says no to it too): such a detail is ``other(_:)``.
    public init(_ any: AnyMessage) {
        let parts = any.typeURL.split(separator: "/", omittingEmptySubsequences: false)
        let typeName = parts.count > 1 ? parts[parts.count - 1] : ""
        do throws(CodecError) {
            switch typeName {
            case ErrorInfo.protoMessageName: self = .errorInfo(try ErrorInfo(serializedBytes: any.value))
            case RetryInfo.protoMessageName: self = .retryInfo(try RetryInfo(serializedBytes: any.value))
            case BadRequest.protoMessageName: self = .badRequest(try BadRequest(serializedBytes: any.value))
            case QuotaFailure.protoMessageName: self = .quotaFailure(try QuotaFailure(serializedBytes: any.value))
            case PreconditionFailure.protoMessageName:
                self = .preconditionFailure(try PreconditionFailure(serializedBytes: any.value))
            case ResourceInfo.protoMessageName: self = .resourceInfo(try ResourceInfo(serializedBytes: any.value))
            case Help.protoMessageName: self = .help(try Help(serializedBytes: any.value))
            case LocalizedMessage.protoMessageName:
                self = .localizedMessage(try LocalizedMessage(serializedBytes: any.value))
            case DebugInfo.protoMessageName: self = .debugInfo(try DebugInfo(serializedBytes: any.value))
            case RequestInfo.protoMessageName: self = .requestInfo(try RequestInfo(serializedBytes: any.value))
            default: self = .other(any)
            }
        } catch {
            self = .undecodable(any, reason: error)
        }
    }

    /// The type URL prefix Google's servers and libraries write: `type.googleapis.com/`.
    public static let typeURLPrefix = "type.googleapis.com/"

    /// The detail as a `google.protobuf.Any`: re-encoded for the typed cases (with the
    /// `type.googleapis.com/` prefix), exactly as it arrived for ``other(_:)`` and ``undecodable(_:reason:)``.
    public var anyMessage: AnyMessage {
        switch self {
        case .errorInfo(let message): Self.pack(message)
        case .retryInfo(let message): Self.pack(message)
        case .badRequest(let message): Self.pack(message)
        case .quotaFailure(let message): Self.pack(message)
        case .preconditionFailure(let message): Self.pack(message)
        case .resourceInfo(let message): Self.pack(message)
        case .help(let message): Self.pack(message)
        case .localizedMessage(let message): Self.pack(message)
        case .debugInfo(let message): Self.pack(message)
        case .requestInfo(let message): Self.pack(message)
        case .other(let any), .undecodable(let any, _): any
        }
    }

    /// The full protobuf name of the detail's type (`google.rpc.ErrorInfo`).
    public var typeName: String {
        let url = anyMessage.typeURL
        return String(url.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    }

    private static func pack(_ message: some ProtobufMessage) -> AnyMessage {
        var any = AnyMessage()
        any.typeURL = typeURLPrefix + type(of: message).protoMessageName
        any.value = message.serializedBytes()
        return any
    }
}
