public import FleetEngineCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Distances, bearings and points on the Earth taken as a sphere, as the simulation measures routes.
///
/// The sphere has the WGS84 mean radius (`(2a + b) / 3`, 6,371,008.8 m), which is what Google's
/// geometry libraries use for path lengths; over a city the error against the ellipsoid is a few
/// parts in a thousand and the same for every route, which is all a simulation needs.
public enum SphericalGeometry {
    /// The WGS84 mean radius, in metres.
    public static let earthRadiusMeters = LatLng.earthMeanRadiusMeters

    /// The great-circle distance between two points, in metres, by the haversine formula (which stays
    /// exact for the short edges of street paths, where the spherical law of cosines loses digits).
    public static func distance(from start: LatLng, to end: LatLng) -> Double {
        start.distance(to: end)
    }

    /// The initial bearing of the great circle from `start` towards `end`: degrees clockwise from
    /// true north, in `0..<360`, the convention of `VehicleLocation.heading`.
    public static func bearing(from start: LatLng, to end: LatLng) -> Double {
        let latitude1 = radians(start.latitude)
        let latitude2 = radians(end.latitude)
        let longitudeDelta = radians(end.longitude - start.longitude)
        let east = sin(longitudeDelta) * cos(latitude2)
        let north = cos(latitude1) * sin(latitude2) - sin(latitude1) * cos(latitude2) * cos(longitudeDelta)
        let degrees = atan2(east, north) * 180 / Double.pi
        let normalized = degrees < 0 ? degrees + 360 : degrees
        // atan2 of a tiny negative angle gives -0 or a value that rounds to 360.
        return normalized >= 360 ? 0 : normalized
    }

    /// A bearing as `VehicleLocation.heading` carries it: whole degrees in `0..<360`.
    public static func heading(from start: LatLng, to end: LatLng) -> Int32 {
        Int32(bearing(from: start, to: end).rounded()) % 360
    }

    /// The point a `fraction` of the way along the great circle from `start` to `end`.
    static func interpolate(from start: LatLng, to end: LatLng, fraction: Double) -> LatLng {
        if fraction <= 0 { return start }
        if fraction >= 1 { return end }
        let a = start.unitVector
        let b = end.unitVector
        let dot = max(-1, min(1, a.x * b.x + a.y * b.y + a.z * b.z))
        let angle = acos(dot)
        // Nearly coincident points: spherical interpolation divides by sin(angle), which vanishes.
        guard angle > 1e-12 else { return start }
        let weightA = sin((1 - fraction) * angle) / sin(angle)
        let weightB = sin(fraction * angle) / sin(angle)
        return LatLng(
            directionX: weightA * a.x + weightB * b.x,
            y: weightA * a.y + weightB * b.y,
            z: weightA * a.z + weightB * b.z
        )
    }

    /// The point `distance` metres from `start` along the great circle that leaves it at `bearing`
    /// degrees.
    static func destination(from start: LatLng, bearing: Double, distance: Double) -> LatLng {
        let angular = distance / earthRadiusMeters
        let course = radians(bearing)
        let latitude1 = radians(start.latitude)
        let latitude2 = asin(sin(latitude1) * cos(angular) + cos(latitude1) * sin(angular) * cos(course))
        let longitudeDelta = atan2(
            sin(course) * sin(angular) * cos(latitude1),
            cos(angular) - sin(latitude1) * sin(latitude2)
        )
        var longitude = start.longitude + longitudeDelta * 180 / Double.pi
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return point(latitude: latitude2 * 180 / Double.pi, longitude: longitude)
    }

    /// The distance in metres from `point` to the great-circle arc from `start` to `end`: across the
    /// arc where the point lies beside it, otherwise to the nearer end.
    static func distance(of point: LatLng, fromEdge start: LatLng, to end: LatLng) -> Double {
        let toPoint = distance(from: start, to: point) / earthRadiusMeters
        let edge = distance(from: start, to: end) / earthRadiusMeters
        let angle = radians(bearing(from: start, to: point) - bearing(from: start, to: end))
        let across = asin(max(-1, min(1, sin(toPoint) * sin(angle))))
        let alongMagnitude = acos(max(-1, min(1, cos(toPoint) / max(cos(across), 1e-15))))
        let along = cos(angle) < 0 ? -alongMagnitude : alongMagnitude
        if along < 0 { return distance(from: start, to: point) }
        if along > edge { return distance(from: end, to: point) }
        return abs(across) * earthRadiusMeters
    }

    /// A `LatLng` with these coordinates, in degrees.
    public static func point(latitude: Double, longitude: Double) -> LatLng {
        LatLng(latitude: latitude, longitude: longitude)
    }

    static func radians(_ degrees: Double) -> Double {
        degrees * Double.pi / 180
    }

    /// Whether a point is a real position: finite, latitude within ±90° and longitude within ±180°.
    static func isValid(_ point: LatLng) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90
            && abs(point.longitude) <= 180
    }
}
