import FleetEngineCodec

/// The simulation's arithmetic on time: instants are whole nanoseconds since the simulation started,
/// so that instants on the location grid compare exactly; motion between them is in `Double` seconds.
enum SimulationTime {
    /// Far beyond any trip (about 31 years), so that no sum of trip times can overflow `Int64`.
    static let limit: Int64 = 1_000_000_000 * 1_000_000_000

    /// A duration in whole nanoseconds (rounded towards zero), clamped to ±``limit``.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        // Compared before taking components: a Duration can hold more seconds than Int64 can, and
        // `components` traps on those.
        if duration >= .nanoseconds(limit) { return limit }
        if duration <= .nanoseconds(-limit) { return -limit }
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    static func duration(_ nanoseconds: Int64) -> Duration {
        .nanoseconds(nanoseconds)
    }

    static func seconds(_ nanoseconds: Int64) -> Double {
        Double(nanoseconds) / 1e9
    }

    /// The last multiple of `step` at or before `instant`.
    static func floor(_ instant: Int64, to step: Int64) -> Int64 {
        let remainder = instant % step
        return remainder < 0 ? instant - remainder - step : instant - remainder
    }

    /// The first multiple of `step` at or after `seconds`, forgiving a microsecond of rounding so that
    /// a motion computed to land on a multiple is not pushed to the next one.
    static func ceiling(seconds: Double, to step: Int64) -> Int64 {
        let nanoseconds = min(Double(limit), max(0, (seconds - 1e-6) * 1e9)).rounded(.up)
        let instant = Int64(nanoseconds)
        let remainder = instant % step
        return remainder == 0 ? instant : instant - remainder + step
    }

    /// The first multiple of `step` at or after `nanoseconds`.
    static func ceiling(_ instant: Int64, to step: Int64) -> Int64 {
        let remainder = instant % step
        return remainder == 0 ? instant : instant - remainder + step
    }

    /// `start` moved on by `nanoseconds`.
    static func timestamp(_ start: Timestamp, plus nanoseconds: Int64) -> Timestamp {
        let total = Int64(start.nanos) + nanoseconds % 1_000_000_000
        var stamp = Timestamp()
        stamp.seconds = start.seconds + nanoseconds / 1_000_000_000 + total / 1_000_000_000
        stamp.nanos = Int32(total % 1_000_000_000)
        if stamp.nanos < 0 {
            stamp.nanos += 1_000_000_000
            stamp.seconds -= 1
        }
        return stamp
    }

    static func protobufDuration(_ nanoseconds: Int64) -> ProtobufDuration {
        var duration = ProtobufDuration()
        duration.seconds = nanoseconds / 1_000_000_000
        duration.nanos = Int32(nanoseconds % 1_000_000_000)
        return duration
    }
}
