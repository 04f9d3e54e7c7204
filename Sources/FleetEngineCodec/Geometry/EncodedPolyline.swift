/// Google's encoded polyline format, the text of `encoded_path_to_waypoint` in `TripWaypoint` and
/// `ConsumableTrafficPolyline`.
///
/// Each coordinate is rounded to 1e-5 degrees (about a metre), stored as the difference from the
/// previous point's, zig-zag encoded (the sign in the lowest bit), and written five bits at a time from
/// the lowest, each chunk as the character `63 + chunk`, with `0x20` added to every chunk but the
/// last. Latitude comes before longitude.
public enum EncodedPolyline {
    /// Units per degree: five decimal places.
    public static let precision: Double = 1e5

    /// The encoded text of a path.
    public static func encode(_ points: [LatLng]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(points.count * 8)
        var previousLatitude: Int64 = 0
        var previousLongitude: Int64 = 0
        for point in points {
            let latitude = units(point.latitude)
            let longitude = units(point.longitude)
            append(latitude - previousLatitude, to: &output)
            append(longitude - previousLongitude, to: &output)
            previousLatitude = latitude
            previousLongitude = longitude
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The points of encoded text; nil when a character is outside `?` to `~`, the text ends inside a
    /// number, a number runs past 32 bits, or a latitude is left without its longitude.
    public static func decode(_ text: String) -> [LatLng]? {
        var points: [LatLng] = []
        var iterator = text.utf8.makeIterator()
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        while true {
            guard let latitudeDelta = nextNumber(&iterator) else { break }
            guard let latitudeChange = latitudeDelta, let longitudeDelta = nextNumber(&iterator) ?? nil else {
                return nil
            }
            latitude += latitudeChange
            longitude += longitudeDelta
            points.append(LatLng(latitude: Double(latitude) / precision, longitude: Double(longitude) / precision))
        }
        return points
    }

    private static func units(_ degrees: Double) -> Int64 {
        // Out-of-range input is the caller's mistake, but must not trap on conversion.
        guard degrees.isFinite else { return 0 }
        let scaled = max(-1_000, min(1_000, degrees)) * precision
        // Google's encoders round with Math.round (Java, JavaScript), which takes a tie up, towards
        // +infinity: -122.084805 is -12208480 units, where rounding away from zero gives -12208481.
        // Below 2^52 both the floor and the difference are exact.
        let below = scaled.rounded(.down)
        return Int64(scaled - below >= 0.5 ? below + 1 : below)
    }

    private static func append(_ value: Int64, to output: inout [UInt8]) {
        var remaining = UInt64(bitPattern: value < 0 ? ~(value << 1) : value << 1)
        while remaining >= 0x20 {
            output.append(UInt8(truncatingIfNeeded: 0x20 | (remaining & 0x1F)) + 63)
            remaining >>= 5
        }
        output.append(UInt8(truncatingIfNeeded: remaining) + 63)
    }

    /// nil at the end of the text; `.some(nil)` for a malformed number; otherwise the number.
    private static func nextNumber(_ iterator: inout String.UTF8View.Iterator) -> Int64?? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        guard var character = iterator.next() else { return nil }
        while true {
            guard character >= 63, character <= 126, shift < 35 else { return .some(nil) }
            let chunk = UInt64(character - 63)
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 { break }
            guard let following = iterator.next() else { return .some(nil) }
            character = following
        }
        // Seven chunks carry 35 bits; the format's numbers are 32-bit (Google's decoders add them up
        // in 32-bit integers), so bits above those are refused rather than read as huge degrees.
        guard result <= UInt64(UInt32.max) else { return .some(nil) }
        let magnitude = Int64(result >> 1)
        return .some(result & 1 == 1 ? ~magnitude : magnitude)
    }
}
