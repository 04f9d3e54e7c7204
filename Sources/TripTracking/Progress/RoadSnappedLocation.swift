import FleetEngineCodec

/// Where the vehicle is, as a navigator reports it: the road-snapped position Fleet Engine keeps
/// (`last_location.location`) with its altitude, bearing, speed and time when known.
public struct RoadSnappedLocation: Sendable, Hashable {
    /// The position.
    public var coordinate: LatLng
    /// Metres above WGS84.
    public var altitude: Double?
    /// The direction of travel, degrees clockwise from north.
    public var bearing: Double?
    /// Metres per second.
    public var speed: Double?
    /// When the vehicle was there.
    public var time: Timestamp?

    /// A location from its parts.
    public init(
        coordinate: LatLng, altitude: Double? = nil, bearing: Double? = nil, speed: Double? = nil,
        time: Timestamp? = nil
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.bearing = bearing
        self.speed = speed
        self.time = time
    }

    /// The location in a vehicle location, when it has a position.
    public init?(_ location: VehicleLocation?) {
        guard let location, let coordinate = location.location else { return nil }
        self.init(
            coordinate: coordinate,
            altitude: location.altitude,
            bearing: location.heading.map(Double.init),
            speed: location.speed ?? location.speedKmph.map { Double($0) / 3.6 },
            time: location.updateTime ?? location.serverTime)
    }
}
