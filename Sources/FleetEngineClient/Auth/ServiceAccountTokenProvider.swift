public import FleetEngineAuth
public import FleetEngineCodec
import Synchronization

/// A ``TokenProvider`` that mints its own server tokens from a service account's key, as a
/// provider's backend does: nothing is fetched, no Google server is called.
///
/// One server token (`"tripid": "*"`, `"vehicleid": "*"`) serves every call. It is kept until
/// ``refreshMargin`` before it expires, and minted afresh when a request asks for a refresh
/// (``TokenRequest/isRefresh``, which the client sets after UNAUTHENTICATED). Minting happens under
/// a lock, so calls that start together before there is a token mint it once.
///
/// ```swift
/// let key = try ServiceAccountKey(contentsOfFile: "fleet-engine-key.json")
/// let provider = ServiceAccountTokenProvider(serviceAccount: key)
/// try await withFleetEngineClient(configuration: configuration, tokenProvider: provider) { client in
///     let trip = try await client.getTrip(named: "providers/\(key.projectID)/trips/trip-1")
/// }
/// ```
///
/// TripTracking's `TripService` follows trips over a client made with it, one token for them all.
public final class ServiceAccountTokenProvider: TokenProvider {
    /// How long before its expiry a kept token is minted again by default: five minutes.
    public static let defaultRefreshMargin: Duration = .seconds(300)

    private let minter: TokenMinter
    /// How long before its expiry a kept token is replaced.
    public let refreshMargin: Duration
    private let kept = Mutex<MintedToken?>(nil)

    /// A provider of server tokens signed with `serviceAccount`.
    ///
    /// - Parameters:
    ///   - serviceAccount: the key to sign with.
    ///   - lifetime: how long each token lives, one hour (the most Fleet Engine accepts) by default.
    ///   - refreshMargin: how long before expiry a token is replaced, five minutes by default, and
    ///     at most half the `lifetime`, so that a token serves at least that long.
    ///   - clock: the wall clock tokens are dated by, the system's by default.
    public init(
        serviceAccount: ServiceAccountKey,
        lifetime: Duration = TokenMinter.fleetEngineMaximumLifetime,
        refreshMargin: Duration = ServiceAccountTokenProvider.defaultRefreshMargin,
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.minter = TokenMinter(serviceAccount: serviceAccount, lifetime: lifetime, clock: clock)
        self.refreshMargin = min(refreshMargin, lifetime / 2)
    }

    /// The kept server token, or a new one when there is none, it is within ``refreshMargin`` of
    /// expiring, or `request` asks for a refresh.
    ///
    /// - Throws: a `JWTError` when the token cannot be minted (a lifetime over an hour).
    public func token(for request: TokenRequest) async throws -> FleetEngineToken {
        let minter = self.minter
        let margin = refreshMargin
        let (current, now) = try kept.withLock { kept throws(JWTError) -> (MintedToken, Timestamp) in
            let now = minter.clock.now()
            if !request.isRefresh, let current = kept, Self.remaining(until: current.expiresAt, from: now) > margin {
                return (current, now)
            }
            let minted = try minter.mintedToken(for: .server)
            kept = minted
            return (minted, now)
        }
        return FleetEngineToken(
            value: current.value,
            expiration: .now + Self.remaining(until: current.expiresAt, from: now)
        )
    }

    /// The time from `now` to `expiresAt`.
    private static func remaining(until expiresAt: Timestamp, from now: Timestamp) -> Duration {
        .seconds(expiresAt.seconds - now.seconds) + .nanoseconds(Int64(expiresAt.nanos) - Int64(now.nanos))
    }
}
