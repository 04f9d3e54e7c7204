/// What a Fleet Engine token lets its bearer do, told apart by the `authorization` claim.
///
/// The three roles of Fleet Engine's on-demand trips, each with the claim Google's documentation
/// and its Java auth library (`ServerTokenClaims`, `TripClaims`, `VehicleClaims`) write:
///
/// | role | `authorization` |
/// | --- | --- |
/// | ``TokenRole/server`` | `{"tripid": "*", "vehicleid": "*"}` |
/// | ``TokenRole/consumer(tripID:)`` | `{"tripid": "<trip id>"}` |
/// | ``TokenRole/driver(vehicleID:)`` | `{"vehicleid": "<vehicle id>"}` |
public enum TokenRole: Sendable, Hashable, CustomStringConvertible {
    /// A consumer app's token: it may read the one trip, and nothing else.
    case consumer(tripID: String)
    /// A driver app's token: it acts for one vehicle. It names no trip, so TripService refuses it.
    case driver(vehicleID: String)
    /// A provider's backend token: it may call every method on every trip.
    case server

    /// The `tripid` or `vehicleid` that stands for every trip or vehicle.
    public static let wildcard = "*"

    /// The `tripid` claim for this role; nil for a driver token.
    public var tripIDClaim: String? {
        switch self {
        case .consumer(let tripID): tripID
        case .driver: nil
        case .server: Self.wildcard
        }
    }

    /// The `vehicleid` claim for this role; nil for a consumer token.
    public var vehicleIDClaim: String? {
        switch self {
        case .consumer: nil
        case .driver(let vehicleID): vehicleID
        case .server: Self.wildcard
        }
    }

    /// `consumer token for trip "<id>"`, `driver token for vehicle "<id>"` or `server token`.
    public var description: String {
        switch self {
        case .consumer(let tripID): "consumer token for trip \"\(tripID)\""
        case .driver(let vehicleID): "driver token for vehicle \"\(vehicleID)\""
        case .server: "server token"
        }
    }
}
