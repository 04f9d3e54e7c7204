import FleetEngineCodec
import Testing

@testable import FleetEngineEmulator

/// The measuring and encoding the simulation is built on.
@Suite("Simulation geometry, polylines and randomness")
struct SimulationGeometryTests {
    @Test("distances are haversine on the WGS84 mean radius")
    func haversine() {
        let equator = SphericalGeometry.point(latitude: 0, longitude: 0)
        let north = SphericalGeometry.point(latitude: 1, longitude: 0)
        // One degree of a great circle: 6,371,008.8 m × π / 180.
        #expect((SphericalGeometry.distance(from: equator, to: north) * 1e6).rounded() / 1e6 == 111_195.080234)
        let london = SphericalGeometry.point(latitude: 51.5080, longitude: -0.1281)
        let paris = SphericalGeometry.point(latitude: 48.8566, longitude: 2.3522)
        #expect((SphericalGeometry.distance(from: london, to: paris) * 1e3).rounded() / 1e3 == 343_624.153)
    }

    @Test("headings are whole degrees clockwise from north")
    func headings() {
        let origin = SphericalGeometry.point(latitude: 0, longitude: 0)
        let targets = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 1.0)]
        #expect(
            targets.map {
                SphericalGeometry.heading(from: origin, to: SphericalGeometry.point(latitude: $0.0, longitude: $0.1))
            } == [0, 90, 180, 270, 45]
        )
    }

    @Test("Google's documented polyline example encodes and decodes")
    func encodedPolyline() throws {
        let points = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)].map {
            SphericalGeometry.point(latitude: $0.0, longitude: $0.1)
        }
        #expect(EncodedPolyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == points)
        #expect(EncodedPolyline.decode("") == [])
        #expect(EncodedPolyline.decode("_p~iF") == nil)  // a latitude without its longitude
        #expect(EncodedPolyline.decode("_p~i") == nil)  // a number cut short
        #expect(EncodedPolyline.decode("_p~iF ps|U") == nil)  // a space is below '?'
    }

    @Test("a route cut at the vehicle is shortened; one that leaves the old path is replaced")
    func routeChanges() {
        let old = [37.000, 37.001, 37.002, 37.003].map { SphericalGeometry.point(latitude: $0, longitude: -122) }
        let onSecondEdge = SphericalGeometry.point(latitude: 37.0015, longitude: -122)
        let besideSecondEdge = SphericalGeometry.point(latitude: 37.0015, longitude: -122.0001)
        #expect(RouteChange(from: old, to: old) == .unchanged)
        #expect(RouteChange(from: old, to: [onSecondEdge] + old[2...]) == .shortened)
        #expect(RouteChange(from: old, to: Array(old[1...])) == .shortened)
        #expect(RouteChange(from: old, to: [old[3]]) == .shortened)
        // 8.9 m off the road is not on it.
        #expect(RouteChange(from: old, to: [besideSecondEdge] + old[2...]) == .replaced)
        #expect(RouteChange(from: old, to: [onSecondEdge, besideSecondEdge, old[3]]) == .replaced)
        #expect(RouteChange(from: Array(old[1...]), to: old) == .replaced)
    }

    @Test("SplitMix64 gives the reference sequence for seed 0")
    func splitMix() {
        var generator = SplitMix64(seed: 0)
        #expect(
            [generator.next(), generator.next(), generator.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F,
            ])
        var dice = SplitMix64(seed: 7)
        let rolls = (0..<1_000).map { _ in dice.integer(in: 1...6) }
        #expect(Set(rolls) == Set(1...6))
    }
}
