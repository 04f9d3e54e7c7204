/// One of the six RPCs of Fleet Engine's `maps.fleetengine.v1.TripService`.
///
/// Authorization depends on the method: a consumer token may only read the one trip it names, so
/// the write methods and ``searchTrips`` (which spans trips) need a server token.
public enum TripServiceMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `CreateTrip`: creates a trip.
    case createTrip = "CreateTrip"
    /// `GetTrip`: reads one trip.
    case getTrip = "GetTrip"
    /// `UpdateTrip`: changes a trip.
    case updateTrip = "UpdateTrip"
    /// `SearchTrips`: lists the trips of a vehicle; it spans trips, so no single trip id covers it.
    case searchTrips = "SearchTrips"
    /// `DeleteTrip`: deletes a trip.
    case deleteTrip = "DeleteTrip"
    /// `ReportBillableTrip`: reports a trip for billing.
    case reportBillableTrip = "ReportBillableTrip"

    /// The fully qualified service name, as it appears in the gRPC path.
    public static let serviceName = "maps.fleetengine.v1.TripService"

    /// The method's name as the proto declares it (`GetTrip`).
    public var name: String { rawValue }

    /// The gRPC request path (`/maps.fleetengine.v1.TripService/GetTrip`), gRPC PROTOCOL-HTTP2
    /// "Requests": `:path` is `/` Service-Name `/` Method-Name.
    public var path: String { "/\(Self.serviceName)/\(rawValue)" }

    /// The method with this gRPC path, or nil when the path names another service or method.
    public init?(path: String) {
        let prefix = "/\(Self.serviceName)/"
        guard path.hasPrefix(prefix) else { return nil }
        self.init(rawValue: String(path.dropFirst(prefix.count)))
    }

    /// The method's full name as Google's `ErrorInfo` metadata writes it
    /// (`maps.fleetengine.v1.TripService.GetTrip`).
    public var fullName: String { "\(Self.serviceName).\(rawValue)" }

    /// Whether the method changes state (create, update, delete, report), which a consumer token
    /// may never do.
    public var isWrite: Bool {
        switch self {
        case .createTrip, .updateTrip, .deleteTrip, .reportBillableTrip: true
        case .getTrip, .searchTrips: false
        }
    }

    /// Whether the method concerns more than one trip, so a token for a single trip cannot cover it.
    public var spansTrips: Bool { self == .searchTrips }

    /// The gRPC path.
    public var description: String { path }
}
