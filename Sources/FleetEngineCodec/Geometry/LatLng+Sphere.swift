#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LatLng {
    /// The WGS84 mean radius (`(2a + b) / 3`), in metres: the sphere Google's geometry libraries
    /// measure path lengths on.
    public static let earthMeanRadiusMeters: Double = 6_371_008.8

    /// The great-circle distance to `other`, in metres, by the haversine formula (which stays exact
    /// for the short edges of street paths, where the spherical law of cosines loses digits).
    public func distance(to other: LatLng) -> Double {
        let latitude1 = latitude * Double.pi / 180
        let latitude2 = other.latitude * Double.pi / 180
        let halfLatitude = sin((latitude2 - latitude1) / 2)
        let halfLongitude = sin((other.longitude - longitude) * Double.pi / 180 / 2)
        let haversine = halfLatitude * halfLatitude + cos(latitude1) * cos(latitude2) * halfLongitude * halfLongitude
        return 2 * Self.earthMeanRadiusMeters * asin(min(1, haversine.squareRoot()))
    }

    /// A point from its latitude and longitude, in degrees.
    public init(latitude: Double, longitude: Double) {
        self.init()
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The point as a vector on the unit sphere, as S2 places it: x towards (0, 0), y towards
    /// (0, 90° E), z towards the north pole.
    public var unitVector: (x: Double, y: Double, z: Double) {
        let latitude = latitude * Double.pi / 180
        let longitude = longitude * Double.pi / 180
        return (cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
    }

    /// The point in the direction of a vector, which need not be of unit length.
    public init(directionX x: Double, y: Double, z: Double) {
        // The squares overflow to infinity for components above about 1e154 and lose their digits
        // below about 1e-154, which would put such a vector's point on the equator or at a pole
        // whatever its direction; hypot scales instead. Other vectors keep the plain formula, so
        // their points stay what they were to the last bit.
        let squares = x * x + y * y
        let horizontal = squares.isNormal || (x == 0 && y == 0) ? squares.squareRoot() : hypot(x, y)
        self.init(
            latitude: atan2(z, horizontal) * 180 / Double.pi,
            longitude: atan2(y, x) * 180 / Double.pi)
    }
}
