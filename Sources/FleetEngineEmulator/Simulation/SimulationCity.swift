import FleetEngineCodec

/// A real city to seed trips in: its centre and a street grid with roughly the city's own bearing and
/// block sizes, so coordinates and paths look like that city's on a map.
public struct SimulationCity: Sendable, Hashable {
    /// The city's name, in English.
    public var name: String

    /// A short lowercase name for identifiers, such as trip ids.
    public var identifier: String

    /// The streets trips drive on.
    public var streets: StreetGrid

    /// How far from the centre seeded trips start and stop, in metres.
    public var radiusMeters: Double

    /// A city.
    public init(name: String, identifier: String, streets: StreetGrid, radiusMeters: Double) {
        self.name = name
        self.identifier = identifier
        self.streets = streets
        self.radiusMeters = radiusMeters
    }

    /// Mountain View, California, around Castro Street: near Google's campus, where Fleet Engine's
    /// sample data lives.
    public static let mountainView = city(
        "Mountain View", "mountain-view", 37.3894, -122.0819, bearing: 37, 110, 160, diagonals: 0, radius: 3_000)

    /// San Francisco, around Union Square, with Market Street's diagonal.
    public static let sanFrancisco = city(
        "San Francisco", "san-francisco", 37.7879, -122.4075, bearing: 352, 125, 85, diagonals: 7, radius: 3_000)

    /// New York, Midtown Manhattan, avenues running 29° east of north, with Broadway's diagonal.
    public static let newYork = city(
        "New York", "new-york", 40.7549, -73.9840, bearing: 29, 190, 80, diagonals: 9, radius: 3_500)

    /// London, around Trafalgar Square.
    public static let london = city(
        "London", "london", 51.5080, -0.1281, bearing: 15, 90, 120, diagonals: 5, radius: 3_000)

    /// Sydney, the central business district.
    public static let sydney = city(
        "Sydney", "sydney", -33.8688, 151.2093, bearing: 350, 100, 140, diagonals: 0, radius: 2_500)

    /// São Paulo, around the Sé cathedral.
    public static let saoPaulo = city(
        "São Paulo", "sao-paulo", -23.5505, -46.6333, bearing: 60, 100, 100, diagonals: 6, radius: 3_500)

    /// Every preset city, in a fixed order (seeding picks from it by index).
    public static let all: [SimulationCity] = [.mountainView, .sanFrancisco, .newYork, .london, .sydney, .saoPaulo]

    private static func city(
        _ name: String,
        _ identifier: String,
        _ latitude: Double,
        _ longitude: Double,
        bearing: Double,
        _ avenueSpacing: Double,
        _ streetSpacing: Double,
        diagonals: Int,
        radius: Double
    ) -> SimulationCity {
        SimulationCity(
            name: name,
            identifier: identifier,
            streets: StreetGrid(
                centre: SphericalGeometry.point(latitude: latitude, longitude: longitude),
                bearing: bearing,
                avenueSpacing: avenueSpacing,
                streetSpacing: streetSpacing,
                diagonalSpacing: diagonals
            ),
            radiusMeters: radius
        )
    }
}
