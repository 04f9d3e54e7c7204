/// Who has to act on an error: the library by itself, or the service that uses it.
///
/// The two families of the Consumer SDK's error model, and two more for the codes those lists
/// leave out. A struct over a private enum, so that a family added later
/// breaks nobody's `switch`.
public struct ErrorFamily: Hashable, Sendable, CustomStringConvertible {
    private enum Wrapped: Hashable, Sendable {
        case serverOrNetwork
        case client
        case conflict
        case serviceFault
        case success
    }

    private let wrapped: Wrapped
    private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

    /// Server and network: nothing for the caller to do, the library recovers by itself (it
    /// retries, or the next refresh succeeds). ABORTED, CANCELLED, DEADLINE_EXCEEDED,
    /// UNAVAILABLE, and a refresh that was interrupted.
    public static let serverOrNetwork = ErrorFamily(.serverOrNetwork)
    /// Client: the caller must act (fix the trip name, the token, the quota, the project); the
    /// library keeps refreshing a followed trip but will not recover on its own.
    /// INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNAUTHENTICATED.
    public static let client = ErrorFamily(.client)
    /// Conflict: the request was well formed but does not fit the trip's current state, so
    /// sending it again unchanged fails again. ALREADY_EXISTS, FAILED_PRECONDITION, OUT_OF_RANGE.
    /// Not in the SDK's lists.
    public static let conflict = ErrorFamily(.conflict)
    /// Service fault: the service, or something between it and us, failed in a way that retrying
    /// is not known to fix and the caller cannot correct. UNKNOWN (and every code gRPC does not
    /// define), UNIMPLEMENTED, INTERNAL, DATA_LOSS. Not in the SDK's lists.
    public static let serviceFault = ErrorFamily(.serviceFault)
    /// OK: not a failure at all.
    public static let success = ErrorFamily(.success)

    /// The family of a status code.
    public init(_ code: StatusCode) {
        switch code.effective {
        case .ok: self = .success
        case .aborted, .cancelled, .deadlineExceeded, .unavailable: self = .serverOrNetwork
        case .invalidArgument, .notFound, .permissionDenied, .resourceExhausted, .unauthenticated: self = .client
        case .alreadyExists, .failedPrecondition, .outOfRange: self = .conflict
        default: self = .serviceFault
        }
    }

    /// Whether the library recovers from errors of this family by itself.
    public var recoversByItself: Bool { self == .serverOrNetwork }

    /// The family's name as the tool prints it: `server-network`, `client`, `conflict`,
    /// `service-fault` or `success`.
    public var description: String {
        switch wrapped {
        case .serverOrNetwork: "server-network"
        case .client: "client"
        case .conflict: "conflict"
        case .serviceFault: "service-fault"
        case .success: "success"
        }
    }

    /// The family with this printed name.
    public init?(name: String) {
        switch name {
        case "server-network": self = .serverOrNetwork
        case "client": self = .client
        case "conflict": self = .conflict
        case "service-fault": self = .serviceFault
        case "success": self = .success
        default: return nil
        }
    }
}
