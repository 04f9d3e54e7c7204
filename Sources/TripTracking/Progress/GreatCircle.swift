import FleetEngineCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Distances on the Earth taken as a sphere of mean radius 6,371,008.8 m (IUGG).
enum GreatCircle {
    static let earthRadius = 6_371_008.8

    /// The haversine distance between two points, in metres.
    static func distance(from a: LatLng, to b: LatLng) -> Double {
        let latitudeA = a.latitude * Double.pi / 180
        let latitudeB = b.latitude * Double.pi / 180
        let halfLatitude = (latitudeB - latitudeA) / 2
        let halfLongitude = (b.longitude - a.longitude) * Double.pi / 360
        let h =
            sin(halfLatitude) * sin(halfLatitude) + cos(latitudeA) * cos(latitudeB) * sin(halfLongitude)
            * sin(halfLongitude)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
