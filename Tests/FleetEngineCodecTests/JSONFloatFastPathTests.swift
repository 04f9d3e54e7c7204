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
