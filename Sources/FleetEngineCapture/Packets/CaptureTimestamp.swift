/// When a packet was captured: seconds and nanoseconds since the Unix epoch (UTC), as pcap and
/// pcapng record it, at whatever resolution the capture had.
public struct CaptureTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// The fraction of the second, in nanoseconds (0 up to 999,999,999).
    public var nanoseconds: UInt32

    /// A timestamp from its parts.
    public init(seconds: Int64, nanoseconds: UInt32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Orders by time.
    public static func < (lhs: CaptureTimestamp, rhs: CaptureTimestamp) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }

    /// The time from `earlier` to this one, in nanoseconds, or `Int64.max` (`Int64.min` when this
    /// one is earlier) when that does not fit 64 bits (about 292 years).
    ///
    /// Timestamps come from the capture file, and a pcapng timestamp can be any 64-bit count of
    /// units plus an offset, so a corrupt one must not trap here.
    public func nanoseconds(since earlier: CaptureTimestamp) -> Int64 {
        let (seconds, secondsOverflow) = self.seconds.subtractingReportingOverflow(earlier.seconds)
        let (scaled, scaledOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, totalOverflow) = scaled.addingReportingOverflow(Int64(nanoseconds) - Int64(earlier.nanoseconds))
        guard !secondsOverflow, !scaledOverflow, !totalOverflow else {
            return self < earlier ? .min : .max
        }
        return total
    }

    /// The time in seconds with nine digits of fraction, as the JSON lines print it: `12.250000000`,
    /// and before the epoch `-0.500000000` for half a second before it (stored as `seconds` -1 and
    /// `nanoseconds` 500,000,000, since the fraction always counts forward).
    public var description: String {
        guard seconds < 0, nanoseconds > 0 else {
            return Self.text(sign: "", seconds: seconds, nanoseconds: nanoseconds)
        }
        // -(seconds + 1) cannot overflow, even for Int64.min.
        return Self.text(sign: "-", seconds: -(seconds + 1), nanoseconds: 1_000_000_000 - nanoseconds)
    }

    private static func text(sign: String, seconds: Int64, nanoseconds: UInt32) -> String {
        let fraction = String(nanoseconds)
        return sign + "\(seconds)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }
}
