import FleetEngineCodec
import Testing

@Suite("S2 polylines, the encoding of current_route_segment")
struct S2PolylineTests {
    /// Published by Google with its Fleet Debugger: three points near Google's campus.
    static let fleetDebuggerVector =
        "AQMAAAA7_tIhjf_avysne_M5iOW__WHh1yJy4z9MIcUK8Pvav7QbiLMRiuW_SWY5Y1lx4z-CIIuaN__av1Eb3-fUh-W_iPpHZ7By4z8="

    static let fleetDebuggerPoints: [(Double, Double)] = [
        (37.42213, -122.0848), (37.4152, -122.0627), (37.427, -122.0854),
    ]

    @Test("Google's vector decodes to its three points")
    func decodesGoogleVector() throws {
        let polyline = try #require(S2Polyline(encoded: Self.fleetDebuggerVector))
        #expect(polyline.vertices.map { ($0.latitude * 1e5).rounded() / 1e5 } == Self.fleetDebuggerPoints.map(\.0))
        #expect(polyline.vertices.map { ($0.longitude * 1e5).rounded() / 1e5 } == Self.fleetDebuggerPoints.map(\.1))
    }

    @Test("the three points encode in Google's layout, to vectors that decode to Google's points")
    func encodesGoogleVector() throws {
        let points = Self.fleetDebuggerPoints.map { LatLng(latitude: $0.0, longitude: $0.1) }
        let encoded = S2Polyline(vertices: points).encoded
        // The layout (version, count, 72 bytes of vectors, one '=' of padding) is Google's exactly.
        #expect(encoded.count == Self.fleetDebuggerVector.count)
        #expect(encoded.hasPrefix("AQMAAAA"))
        #expect(encoded.hasSuffix("="))
        // Trigonometry differs between libraries in the last bit, so the vectors are compared as points.
        let ours = try #require(S2Polyline(encoded: encoded)).vertices
        let googles = try #require(S2Polyline(encoded: Self.fleetDebuggerVector)).vertices
        for (mine, theirs) in zip(ours, googles) {
            #expect(abs(mine.latitude - theirs.latitude) < 1e-12)
            #expect(abs(mine.longitude - theirs.longitude) < 1e-12)
        }
    }

    @Test("a point on the equator at the prime meridian is the vector (1, 0, 0), byte for byte")
    func encodesExactBytes() {
        let origin = LatLng(latitude: 0, longitude: 0)
        #expect(S2Polyline(vertices: [origin]).encoded == "AQEAAAAAAAAAAADwPwAAAAAAAAAAAAAAAAAAAAA=")
        #expect(S2Polyline(vertices: []).encoded == "AQAAAAA=")
        #expect(S2Polyline(encoded: "AQAAAAA=") == S2Polyline(vertices: []))
    }

    @Test("decoding an encoded path gives the points back")
    func roundTrip() throws {
        let points = [(51.5080, -0.1281), (-33.8688, 151.2093), (89.9, 179.9), (-89.9, -179.9)].map {
            LatLng(latitude: $0.0, longitude: $0.1)
        }
        let decoded = try #require(S2Polyline(encoded: S2Polyline(vertices: points).encoded)).vertices
        #expect(decoded.count == 4)
        for (point, back) in zip(points, decoded) {
            #expect(abs(point.latitude - back.latitude) < 1e-12)
            #expect(abs(point.longitude - back.longitude) < 1e-12)
        }
    }

    @Test("a vector far from unit length decodes to its direction, even where its squares overflow or vanish")
    func decodesExtremeVectorLengths() throws {
        // (1e200, 0, 1e200) and (0, -1e-200, 1e-200): 45 degrees north, at longitudes 0 and -90. Squaring
        // the components gives infinity and zero, which put the points on the equator and the pole.
        let text = "AQIAAABaYtfXGOd0aQAAAAAAAAAAWmLX1xjndGkAAAAAAAAAAKz3ThWSfmiWrPdOFZJ-aBY="
        let vertices = try #require(S2Polyline(encoded: text)).vertices
        #expect(vertices.count == 2)
        for (vertex, longitude) in zip(vertices, [0.0, -90.0]) {
            #expect(abs(vertex.latitude - 45) < 1e-12)
            #expect(abs(vertex.longitude - longitude) < 1e-12)
        }
        let huge = LatLng(directionX: 1e300, y: 1e300, z: 0)
        #expect(abs(huge.latitude) < 1e-12)
        #expect(abs(huge.longitude - 45) < 1e-12)
    }

    @Test(
        "malformed text is refused",
        arguments: [
            "",  // no version or count
            "AgEAAAAAAAAAAADwPwAAAAAAAAAAAAAAAAAAAAA=",  // version 2
            "AQIAAAAAAAAAAADwPwAAAAAAAAAAAAAAAAAAAAA=",  // claims two vertices, holds one
            "AQEAAAAAAAAAAADwPwAAAAAAAAAAAAAAAAAAAA==",  // a vertex cut short
            "AQEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  // the zero vector has no direction
            "AQAAAA.=",  // "." is in neither base64 alphabet
            "AQAA=AA=",  // padding inside
            "AQAAAAAAA",  // nine characters leave one over, which encodes no byte
        ])
    func refusesMalformed(_ text: String) {
        #expect(S2Polyline(encoded: text) == nil)
    }
}
