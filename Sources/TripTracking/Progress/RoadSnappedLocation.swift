public import FleetEngineCodec

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

    /// The location in a vehicle location, when it has a real position: finite, latitude within
    /// ±90° and longitude within ±180°. Altitude and speed that are not finite numbers are left out.
    public init?(_ location: VehicleLocation?) {
        guard let location, let coordinate = location.location, coordinate.latitude.isFinite,
            coordinate.longitude.isFinite, abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180
        else { return nil }
        self.init(
            coordinate: coordinate,
            altitude: location.altitude.flatMap { $0.isFinite ? $0 : nil },
            bearing: location.heading.map(Double.init),
            speed: location.speed.flatMap { $0.isFinite ? $0 : nil } ?? location.speedKmph.map { Double($0) / 3.6 },
            time: location.updateTime ?? location.serverTime)
    }
}
