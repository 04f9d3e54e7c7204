/// A capture interface as a pcapng Interface Description Block describes it
/// (draft-ietf-opsawg-pcapng section 4.2): what its packets start with and how to read their
/// timestamps.
struct PcapNGInterface: Sendable {
    /// The unit of an interface's timestamps (option if_tsresol, section 4.2).
    enum TimestampResolution: Hashable, Sendable {
        /// 10^-exponent seconds.
        case decimal(exponent: Int)
        /// 2^-exponent seconds.
        case binary(exponent: Int)

        /// Microseconds, the resolution when the option is absent.
        static let microseconds = TimestampResolution.decimal(exponent: 6)

        /// The resolution an if_tsresol byte encodes: the most significant bit selects a power of
        /// two, otherwise of ten; the other bits are the negative exponent.
        init(optionValue: UInt8) {
            let exponent = Int(optionValue & 0x7F)
            self = optionValue & 0x80 == 0 ? .decimal(exponent: exponent) : .binary(exponent: exponent)
        }

        /// Whether a 64-bit timestamp in this unit can be converted exactly: 10^19 is the largest
        /// power of ten and 2^63 the largest power of two that fit the arithmetic.
        var isSupported: Bool {
            switch self {
            case .decimal(let exponent): exponent <= 19
            case .binary(let exponent): exponent <= 63
            }
        }
    }

    /// What the interface's packets start with.
    var linkType: LinkType
    /// The most bytes captured of each packet; 0 means no limit (section 4.2).
    var snapLength: UInt32
    /// The unit of the timestamps.
    var timestampResolution: TimestampResolution = .microseconds
    /// Seconds added to every timestamp (option if_tsoffset, section 4.2).
    var timestampOffset: Int64 = 0

    /// 10^0 through 10^19, every power of ten a `UInt64` holds.
    private static let powersOfTen: [UInt64] = (0...19).reduce(into: []) { powers, exponent in
        powers.append(exponent == 0 ? 1 : powers[exponent - 1] * 10)
    }

    /// The time `units` ticks of this interface's clock after the epoch plus its offset, or `nil`
    /// when the seconds do not fit a `CaptureTimestamp`.
    ///
    /// Exact for every resolution: a fraction finer than a nanosecond is rounded down.
    func timestamp(units: UInt64) -> CaptureTimestamp? {
        let seconds: UInt64
        let nanoseconds: UInt64
        switch timestampResolution {
        case .decimal(let exponent):
            let unitsPerSecond = Self.powersOfTen[exponent]
            seconds = units / unitsPerSecond
            let fraction = units % unitsPerSecond
            nanoseconds =
                exponent <= 9
                ? fraction * Self.powersOfTen[9 - exponent] : fraction / Self.powersOfTen[exponent - 9]
        case .binary(let exponent):
            seconds = exponent == 0 ? units : units >> UInt64(exponent)
            if exponent == 0 {
                nanoseconds = 0
            } else {
                // fraction × 10^9 can need 94 bits; shift the 128-bit product down by the exponent.
                let fraction = units & ((1 << UInt64(exponent)) - 1)
                let product = fraction.multipliedFullWidth(by: 1_000_000_000)
                nanoseconds = (product.high << UInt64(64 - exponent)) | (product.low >> UInt64(exponent))
            }
        }
        guard let signedSeconds = Int64(exactly: seconds) else { return nil }
        let (total, overflow) = signedSeconds.addingReportingOverflow(timestampOffset)
        guard !overflow else { return nil }
        return CaptureTimestamp(seconds: total, nanoseconds: UInt32(truncatingIfNeeded: nanoseconds))
    }
}
