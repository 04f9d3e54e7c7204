/// What a Fleet Engine TripService token lets its bearer do.
///
/// Fleet Engine tells the roles apart by the `authorization` claim: a consumer token names one
/// trip (`"tripid": "<trip id>"`), a server token names every trip (`"tripid": "*"`, usually with
/// `"vehicleid": "*"`).
public enum TokenRole: Sendable, Hashable, CustomStringConvertible {
    /// A consumer app's token: it may read the one trip, and nothing else.
    case consumer(tripID: String)
    /// A provider's backend token: it may call every method on every trip.
    case server

    /// The `tripid` that stands for every trip.
    public static let wildcard = "*"

    /// The `tripid` claim for this role.
    public var tripIDClaim: String {
        switch self {
        case .consumer(let tripID): tripID
        case .server: Self.wildcard
        }
    }

    /// `consumer token for trip "<id>"` or `server token`.
    public var description: String {
        switch self {
        case .consumer(let tripID): "consumer token for trip \"\(tripID)\""
        case .server: "server token"
        }
    }
}
