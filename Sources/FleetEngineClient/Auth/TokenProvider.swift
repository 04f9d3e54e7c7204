public import FleetEngineWire

/// Where the client gets the JWTs it sends as `authorization: Bearer <JWT>`.
///
/// Fleet Engine wants a token minted by the caller's own backend: a consumer token names one trip
/// (`authorization.tripid`), a server token all of them. The client asks for one per
/// ``TokenRequest`` (so per method and trip: per trip for GetTrip, when the provider hands out
/// consumer tokens), keeps it until shortly before it expires, and asks again, with
/// ``TokenRequest/isRefresh`` set, once after a call failed with UNAUTHENTICATED (once for all the
/// calls refused with the same token).
public protocol TokenProvider: Sendable {
    /// A token good for `request`. Errors thrown here fail the call with UNAUTHENTICATED and the
    /// error as its cause, a `CancellationError` too unless the call itself was cancelled (then
    /// the call ends with CANCELLED).
    func token(for request: TokenRequest) async throws -> FleetEngineToken
}

/// What a token is asked for.
public struct TokenRequest: Sendable, Hashable {
    /// The TripService method about to be called.
    public var method: GRPCMethodPath
    /// The provider (`providers/{provider_id}`'s id) the call is for.
    public var providerID: String
    /// The trip the call is about, when it names one (GetTrip, UpdateTrip, DeleteTrip, CreateTrip's
    /// new trip, and ReportBillableTrip's billable trip id).
    public var tripID: String?
    /// True when the last token for this request was refused (UNAUTHENTICATED): hand out a new
    /// one, not a cached one.
    public var isRefresh: Bool

    /// A request from its parts.
    public init(method: GRPCMethodPath, providerID: String, tripID: String?, isRefresh: Bool = false) {
        self.method = method
        self.providerID = providerID
        self.tripID = tripID
        self.isRefresh = isRefresh
    }

    /// Whether the method only reads (a consumer token can be enough).
    public var isRead: Bool { method == .getTrip }
}

/// A bearer token and when it stops being good.
///
/// Its description never shows the token: logs and error messages can print it safely.
public struct FleetEngineToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The JWT, as sent after `Bearer `.
    public var value: String
    /// When the token expires; nil when unknown, in which case the token's own `exp` claim is
    /// read when it has one, and otherwise the token is kept until a call is refused.
    public var expiration: ContinuousClock.Instant?

    /// A token and its expiry.
    public init(value: String, expiration: ContinuousClock.Instant? = nil) {
        self.value = value
        self.expiration = expiration
    }

    /// `token (redacted)`.
    public var description: String { "token (redacted, \(value.utf8.count) characters)" }

    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// A provider that always hands out the same token, for tests, the emulator and command-line use.
public struct StaticTokenProvider: TokenProvider {
    private let token: FleetEngineToken

    /// A provider of `token`.
    public init(_ token: String) {
        self.token = FleetEngineToken(value: token)
    }

    /// The token.
    public func token(for request: TokenRequest) async throws -> FleetEngineToken { token }
}

/// A provider that sends no `authorization` header at all, for an emulator started with
/// `--no-auth`.
public struct NoTokenProvider: TokenProvider {
    /// A provider of no token.
    public init() {}

    /// An empty token, which the client does not send.
    public func token(for request: TokenRequest) async throws -> FleetEngineToken { FleetEngineToken(value: "") }
}
