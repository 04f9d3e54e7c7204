import FleetEngineWire
import Testing

@Suite("GRPCTimeout")
struct GRPCTimeoutTests {
    static let largestHours = Duration.seconds(3_600 * 99_999_999)

    static let encodings: [(Duration, String)] = [
        (Duration.zero, "0n"),
        (.nanoseconds(-5), "0n"),
        (.seconds(-3), "0n"),
        (Duration(secondsComponent: 0, attosecondsComponent: 1), "1n"),
        (.nanoseconds(1), "1n"),
        (.nanoseconds(1_500), "1500n"),
        (.milliseconds(1), "1000000n"),
        (.nanoseconds(99_999_999), "99999999n"),
        (.nanoseconds(100_000_000), "100000u"),
        (.nanoseconds(100_000_001), "100001u"),
        (.seconds(1), "1000000u"),
        (.seconds(99), "99000000u"),
        (.seconds(99) + .nanoseconds(999_999_000), "99999999u"),
        (.seconds(99) + .nanoseconds(999_999_001), "100000m"),
        (.seconds(100), "100000m"),
        (.seconds(100) + .nanoseconds(1), "100001m"),
        (.seconds(99_999) + .milliseconds(999), "99999999m"),
        (.seconds(100_000), "100000S"),
        (.seconds(100_000) + .nanoseconds(1), "100001S"),
        (.seconds(99_999_999), "99999999S"),
        (.seconds(100_000_000), "1666667M"),
        (.seconds(99_999_999 * 60), "99999999M"),
        (.seconds(99_999_999 * 60 + 1), "1666667H"),
        (.seconds(3_600 * 50_000_000), "50000000H"),
        (largestHours, "99999999H"),
        (largestHours + .nanoseconds(1), "99999999H"),
        (.seconds(Int64.max), "99999999H"),
        (.seconds(Int64.max) * 4, "99999999H"),
    ]

    @Test("encodes a duration in the finest unit that fits 8 digits, rounding up", arguments: encodings)
    func encodes(duration: Duration, header: String) throws {
        let timeout = GRPCTimeout(duration)
        #expect(timeout.headerValue == header)
        #expect(timeout.description == header)
        #expect(timeout.duration >= min(max(duration, .zero), Self.largestHours))
        #expect(GRPCTimeout(headerValue: header) == timeout)
    }

    @Test("the largest encodable timeout is 99999999 hours")
    func largest() {
        #expect(GRPCTimeout.max.headerValue == "99999999H")
        #expect(GRPCTimeout.max.duration == Self.largestHours)
        #expect(GRPCTimeout.maxValue == 99_999_999)
    }

    @Test(
        "reads every unit of the header",
        arguments: [
            ("2H", Duration.seconds(7_200), GRPCTimeout.Unit.hours),
            ("3M", .seconds(180), .minutes),
            ("1S", .seconds(1), .seconds),
            ("250m", .milliseconds(250), .milliseconds),
            ("7u", .microseconds(7), .microseconds),
            ("99999999n", .nanoseconds(99_999_999), .nanoseconds),
            ("00000010S", .seconds(10), .seconds),
            ("0n", .zero, .nanoseconds),
        ])
    func parses(header: String, duration: Duration, unit: GRPCTimeout.Unit) throws {
        let timeout = try #require(GRPCTimeout(headerValue: header))
        #expect(timeout.duration == duration)
        #expect(timeout.unit == unit)
    }

    @Test(
        "refuses a header that is not 1 to 8 digits and a unit",
        arguments: ["", "S", "1", "123456789S", "1s", "1h", "-1S", "+1S", " 1S", "1S ", "1.5S", "１S"])
    func refusesMalformed(header: String) {
        #expect(GRPCTimeout(headerValue: header) == nil)
    }

    @Test("builds a timeout from a value and unit only within 8 digits")
    func fromParts() {
        #expect(GRPCTimeout(value: 99_999_999, unit: .minutes)?.headerValue == "99999999M")
        #expect(GRPCTimeout(value: 100_000_000, unit: .minutes) == nil)
        #expect(GRPCTimeout(value: -1, unit: .seconds) == nil)
    }
}
