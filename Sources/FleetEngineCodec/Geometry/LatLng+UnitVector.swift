#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LatLng {
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
        self.init(
            latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / Double.pi,
            longitude: atan2(y, x) * 180 / Double.pi)
    }
}
