import FleetEngineCodec
import Testing

@Suite("Encoded polylines, the text of encoded_path_to_waypoint")
struct EncodedPolylineTests {
    @Test("Google's worked example decodes to its three points and encodes back")
    func googleExample() {
        let points = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)].map {
            LatLng(latitude: $0.0, longitude: $0.1)
        }
        #expect(EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == points)
        #expect(EncodedPolyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test("a coordinate halfway between two units rounds up, as Google's encoders' Math.round does")
    func tiesRoundUp() {
        // -0.000015 and -122.084805 are -1.5 and -12208480.5 units: Google's Java and JavaScript encoders
        // write -1 and -12208480. 37.422135 is 3742213.4999999995 units, below the tie.
        let points = [
            LatLng(latitude: -0.000015, longitude: -122.084805), LatLng(latitude: 37.422135, longitude: -122.084815),
        ]
        #expect(EncodedPolyline.encode(points) == "@~tchVk_lcF@")
    }

    @Test("a number of 32 bits, the most the format carries, is read")
    func widestNumber() {
        // Six full chunks and a last chunk of 3: 2^32 - 1, zig-zag for -2^31 units.
        #expect(EncodedPolyline.decode("~~~~~~B?") == [LatLng(latitude: -21_474.836_48, longitude: 0)])
    }

    @Test(
        "a number past 32 bits is refused, not read as thousands of degrees",
        arguments: [
            "~~~~~~^?",  // 2^35 - 1
            "~~~~~~C?",  // 2^32
            "??~~~~~~^?",  // the latitude of the second point
        ])
    func numberPast32Bits(_ text: String) {
        #expect(EncodedPolyline.decode(text) == nil)
    }
}
