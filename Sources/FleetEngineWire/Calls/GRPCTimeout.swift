/// A call's deadline as the `grpc-timeout` request header carries it: at most 8 ASCII digits and
/// a unit.
///
/// gRPC PROTOCOL-HTTP2, "Requests": Timeout → "grpc-timeout" TimeoutValue TimeoutUnit, where
/// TimeoutValue is a positive integer of at most 8 digits and TimeoutUnit one of `H` `M` `S` `m`
/// `u` `n`. A value of 0 (`0n`) is what gRPC's implementations send for a deadline already past.
public struct GRPCTimeout: Hashable, Sendable, CustomStringConvertible {
    /// The unit of a timeout, with its letter on the wire.
    public enum Unit: UInt8, Hashable, Sendable, CaseIterable {
        /// `H`: hours.
        case hours = 0x48
        /// `M`: minutes.
        case minutes = 0x4D
        /// `S`: seconds.
        case seconds = 0x53
        /// `m`: milliseconds.
        case milliseconds = 0x6D
        /// `u`: microseconds.
        case microseconds = 0x75
        /// `n`: nanoseconds.
        case nanoseconds = 0x6E

        /// The units from finest to coarsest, the order ``GRPCTimeout/init(_:)`` tries them in.
        static let finestFirst: [Unit] = [.nanoseconds, .microseconds, .milliseconds, .seconds, .minutes, .hours]

        /// How many of the unit make a second, for units finer than a second.
        fileprivate var perSecond: Int64? {
            switch self {
            case .nanoseconds: 1_000_000_000
            case .microseconds: 1_000_000
            case .milliseconds: 1_000
            case .seconds, .minutes, .hours: nil
            }
        }

        /// How many seconds one of the unit lasts, for units of a second or more.
        fileprivate var seconds: Int64 {
            switch self {
            case .hours: 3_600
            case .minutes: 60
            default: 1
            }
        }

        /// The unit as a duration.
        public var duration: Duration {
            switch self {
            case .hours: .seconds(3_600)
            case .minutes: .seconds(60)
            case .seconds: .seconds(1)
            case .milliseconds: .milliseconds(1)
            case .microseconds: .microseconds(1)
            case .nanoseconds: .nanoseconds(1)
            }
        }
    }

    /// The largest TimeoutValue: 8 digits.
    public static let maxValue = 99_999_999
    /// The longest timeout the header can carry: 99999999 hours, a little over 11,400 years.
    public static let max = GRPCTimeout(uncheckedValue: maxValue, unit: .hours)

    /// ``max`` as a duration, worked out once: every call's timeout is compared with it, and the
    /// multiplication takes 128-bit arithmetic.
    private static let maxDuration = max.duration

    /// The number, 0 through ``maxValue``.
    public let value: Int
    /// The unit of ``value``.
    public let unit: Unit

    /// A timeout of `value` `unit`s, or nil when `value` is negative or has more than 8 digits.
    public init?(value: Int, unit: Unit) {
        guard (0...Self.maxValue).contains(value) else { return nil }
        self.init(uncheckedValue: value, unit: unit)
    }

    private init(uncheckedValue value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// The timeout for a deadline `duration` from now, in the finest unit whose value fits in 8
    /// digits, rounded up so that the server never sees a shorter deadline than the client keeps.
    ///
    /// A duration of zero or less gives `0n`; one longer than ``max`` gives ``max``.
    public init(_ duration: Duration) {
        guard duration > .zero else {
            self.init(uncheckedValue: 0, unit: .nanoseconds)
            return
        }
        // Checked before taking the components: a long enough Duration has more seconds than an
        // Int64 holds.
        guard duration < Self.maxDuration else {
            self = Self.max
            return
        }
        let (seconds, attoseconds) = duration.components
        for unit in Unit.finestFirst {
            if let perSecond = unit.perSecond {
                // Attoseconds are below one second, so only the whole seconds can overflow;
                // checking them first keeps the multiplication in range.
                guard seconds <= Int64(Self.maxValue) / perSecond else { continue }
                let attosecondsPerUnit = 1_000_000_000_000_000_000 / perSecond
                let fraction = (attoseconds + attosecondsPerUnit - 1) / attosecondsPerUnit
                let value = seconds * perSecond + fraction
                if value <= Int64(Self.maxValue) {
                    self.init(uncheckedValue: Int(value), unit: unit)
                    return
                }
            } else {
                // Rounding up to whole seconds, then to whole units, rounds up the duration once.
                let wholeSeconds = seconds + (attoseconds > 0 ? 1 : 0)
                let value = wholeSeconds / unit.seconds + (wholeSeconds % unit.seconds > 0 ? 1 : 0)
                if value <= Int64(Self.maxValue) {
                    self.init(uncheckedValue: Int(value), unit: unit)
                    return
                }
            }
        }
        self = Self.max
    }

    /// Reads a `grpc-timeout` value: 1 to 8 ASCII digits and a unit letter, nothing else.
    public init?(headerValue: String) {
        let bytes = headerValue.utf8
        guard bytes.count >= 2, bytes.count <= 9, let last = bytes.last, let unit = Unit(rawValue: last) else {
            return nil
        }
        var value = 0
        for byte in bytes.dropLast() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        self.init(uncheckedValue: value, unit: unit)
    }

    /// The `grpc-timeout` value: the decimal number, then the unit letter (`250m`).
    public var headerValue: String {
        var text = String(value)
        text.unicodeScalars.append(Unicode.Scalar(unit.rawValue))
        return text
    }

    /// The timeout as a duration.
    public var duration: Duration {
        unit.duration * value
    }

    /// The `grpc-timeout` value.
    public var description: String { headerValue }
}
