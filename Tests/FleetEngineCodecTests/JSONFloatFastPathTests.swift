import Testing

@testable import FleetEngineCodec

@Suite("Printing doubles: the fast path for short digits prints exactly what the general path prints")
struct JSONFloatFastPathTests {
    static func text(_ body: (inout [UInt8]) -> Void) -> String {
        var output: [UInt8] = []
        body(&output)
        return String(decoding: output, as: UTF8.self)
    }

    static func check(_ value: Double) -> Bool {
        let general = text { JSONFloatText.appendBySwiftText(value, to: &$0) }
        let printed = text { JSONFloatText.append(value, to: &$0) }
        return general == printed
    }

    @Test("coordinates and measurements with 1 to 17 significant digits, both signs")
    func decimalValues() {
        var generator = SplitMix(seed: 7)
        var fastPathTaken = 0
        for _ in 0..<300_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let mantissa = Double(
                UInt64.random(in: 1...UInt64(9_999_999_999_999_999), using: &generator) % UInt64(Self.pow10(digits)))
            let value =
                mantissa / Self.pow10(Int.random(in: 0...20, using: &generator))
                * (Bool.random(using: &generator) ? 1 : -1)
            var probe: [UInt8] = []
            if JSONFloatText.appendFewDigits(value, to: &probe) { fastPathTaken += 1 }
            #expect(Self.check(value), "\(value)")
        }
        // Most such values take the fast path; the test would prove nothing if none did.
        #expect(fastPathTaken > 100_000)
    }

    @Test("random bit patterns across the whole range, and the edges of fixed notation")
    func bitPatterns() {
        var generator = SplitMix(seed: 11)
        for _ in 0..<300_000 {
            let value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            guard value.isFinite else { continue }
            #expect(Self.check(value), "\(value)")
        }
        let edges: [Double] = [
            1e-4, 1e-4.nextUp, 1e-4.nextDown, 0.001, 0.0012345, 1e15, 1e15.nextDown, 999_999_999_999_999.9, 1.0,
            0.1, 0.3, 2.0 / 3.0, 37.42213, -122.0848, 9_007_199_254_740_992, 123_456_789_012_345.6,
            .leastNonzeroMagnitude,
            Double.greatestFiniteMagnitude, 0.0, -0.0, 100.0, 1e14, 99_999_999_999_999.99,
        ]
        for value in edges {
            #expect(Self.check(value), "\(value)")
            for neighbour in [value.nextUp, value.nextDown] where neighbour.isFinite {
                #expect(Self.check(neighbour), "\(neighbour)")
            }
        }
    }

    @Test("where Swift and Python both print fixed notation (10^-4 to 2^53), the text is Swift's description")
    func swiftDescription() {
        var generator = SplitMix(seed: 13)
        var values: [Double] = [
            1e-4, 0.0001234, 0.001, 0.01, 0.1, 0.5, 1.0, 9.5, 10.0, 37.4219, -122.0841, 37.422071, -122.084219,
            100.0, 120.0, 1_200_000.0, 999_999_999_999_999.0, 1e15, 1e15 + 2, 123_456_789_012_345.6,
            4_503_599_627_370_496.5, 9_007_199_254_740_991.0, 0.30000000000000004, 2.0 / 3.0,
        ]
        for exponent in -4...15 {
            let power = Self.pow10(abs(exponent))
            let value = exponent < 0 ? 1 / power : power
            values += [value, value.nextUp, value.nextDown, 9.99999 * value, 1.5 * value]
        }
        // Coordinates of 1 to 9 decimals, the kind of double trips are made of.
        for _ in 0..<50_000 {
            let decimals = Int.random(in: 1...9, using: &generator)
            let units = Double(Int64.random(in: -180_000_000_000...180_000_000_000, using: &generator))
            values.append((units / 1e9 * Self.pow10(decimals)).rounded() / Self.pow10(decimals))
        }
        // Any double of the range: bit patterns from its lowest to its highest.
        let lowest = (1e-4).bitPattern
        let highest = (9_007_199_254_740_992.0).bitPattern
        for _ in 0..<50_000 {
            values.append(Double(bitPattern: UInt64.random(in: lowest..<highest, using: &generator)))
        }
        var fastPathTaken = 0
        for magnitude in values where magnitude.magnitude >= 1e-4 && magnitude.magnitude < 9_007_199_254_740_992 {
            for value in [magnitude, -magnitude] {
                #expect(Self.text { JSONFloatText.append(value, to: &$0) } == value.description)
                var probe: [UInt8] = []
                if JSONFloatText.appendFewDigits(value, to: &probe) { fastPathTaken += 1 }
            }
        }
        #expect(fastPathTaken > 100_000)
    }

    @Test("eight digits at a time: every value below 10^5, every 997th below 10^8, and the edges")
    func asciiDigits() {
        var numbers = Array(0..<100_000) + Array(stride(from: 100_000, to: 100_000_000, by: 997))
        numbers += [9_999_999, 10_000_000, 99_999_999, 12_345_678, 90_000_009, 10_000_001]
        for number in numbers {
            let text = withUnsafeBytes(of: JSONFloatText.asciiDigits(eightOf: UInt64(number)).littleEndian) {
                String(decoding: $0, as: UTF8.self)
            }
            let expected = String(repeating: "0", count: 8 - String(number).count) + String(number)
            #expect(text == expected)
        }
    }

    static func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

/// SplitMix64, seeded, so a failure can be replayed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

@Suite("Appending a message's JSON to a larger text")
struct AppendJSONTests {
    @Test("appending writes after what is there exactly what jsonUTF8Bytes returns")
    func appendsTheSameText() throws {
        var trip = Trip()
        trip.name = "providers/p/trips/t"
        trip.remainingDistanceMeters = 1_250
        var point = LatLng()
        point.latitude = 37.42213
        point.longitude = -122.0848
        trip.route = [point, point]
        var output = Array("prefix ".utf8)
        try trip.appendJSONUTF8Bytes(to: &output)
        #expect(output == Array("prefix ".utf8) + (try trip.jsonUTF8Bytes(options: JSONEncodingOptions())))
    }

    @Test("a failure leaves the text as it was")
    func failureLeavesTheText() throws {
        // An Any of a type the codec does not know cannot be printed (as with Google's printer).
        var any = AnyMessage()
        any.typeURL = "type.googleapis.com/unknown.Type"
        var output = Array("kept".utf8)
        #expect(throws: CodecError.self) { try any.appendJSONUTF8Bytes(to: &output) }
        #expect(output == Array("kept".utf8))
    }
}
