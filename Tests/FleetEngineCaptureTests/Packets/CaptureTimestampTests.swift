import FleetEngineCapture
import Testing

@Suite("Capture timestamps: differences, order and text")
struct CaptureTimestampTests {
    @Test("the time between two timestamps, in nanoseconds, across a second boundary and backwards")
    func differences() {
        let earlier = CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 999_999_000)
        let later = CaptureTimestamp(seconds: 1_700_000_001, nanoseconds: 1_000)
        #expect(later.nanoseconds(since: earlier) == 2_000)
        #expect(earlier.nanoseconds(since: later) == -2_000)
        #expect(earlier < later)
    }

    @Test("timestamps too far apart for 64 bits of nanoseconds saturate instead of trapping")
    func saturates() {
        // pcapng lets a timestamp be any 64-bit count; the fuzzer found one 5 million years on.
        let ordinary = CaptureTimestamp(seconds: 1_700_000_000, nanoseconds: 0)
        let farFuture = CaptureTimestamp(seconds: Int64.max / 2, nanoseconds: 5)
        #expect(farFuture.nanoseconds(since: ordinary) == .max)
        #expect(ordinary.nanoseconds(since: farFuture) == .min)
        let extremes = CaptureTimestamp(seconds: .min, nanoseconds: 0)
        #expect(farFuture.nanoseconds(since: extremes) == .max)
    }

    @Test("the JSON text has nine fraction digits")
    func text() {
        #expect(CaptureTimestamp(seconds: 12, nanoseconds: 3_400).description == "12.000003400")
        #expect(CaptureTimestamp(seconds: 0, nanoseconds: 0).description == "0.000000000")
    }

    @Test("before the epoch the text is the time it stands for: the fraction counts forward from a negative second")
    func textBeforeTheEpoch() {
        #expect(CaptureTimestamp(seconds: -1, nanoseconds: 500_000_000).description == "-0.500000000")
        #expect(CaptureTimestamp(seconds: -2, nanoseconds: 250_000_000).description == "-1.750000000")
        #expect(CaptureTimestamp(seconds: -3, nanoseconds: 0).description == "-3.000000000")
        #expect(CaptureTimestamp(seconds: -1, nanoseconds: 999_999_999).description == "-0.000000001")
        #expect(CaptureTimestamp(seconds: .min, nanoseconds: 1).description == "-9223372036854775807.999999999")
    }
}
