import FleetEngineCodec
import Testing
import TripTracking

@Suite("The sun's position: NOAA's algorithm against published sunrise and sunset times")
struct SolarPositionTests {
    /// A published rising or setting, in UTC, to the minute.
    struct Published: Sendable, CustomTestStringConvertible {
        var place: String
        var latitude: Double
        var longitude: Double
        /// The moment, as UTC seconds since the epoch of the published minute.
        var minute: Int64
        var isSunrise: Bool

        var testDescription: String { "\(place) \(isSunrise ? "sunrise" : "sunset") at minute \(minute)" }
    }

    /// Seconds since the epoch of a UTC date and time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Int64 {
        // Days from the civil date (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days) * 86_400 + Int64(hour) * 3_600 + Int64(minute) * 60
    }

    static let published: [Published] = [
        // Washington, D.C., 13 January 2025: sunrise 7:26 a.m., sunset 5:08 p.m. EST (UTC-5).
        Published(
            place: "Washington", latitude: 38.8951, longitude: -77.0364, minute: utc(2025, 1, 13, 12, 26),
            isSunrise: true),
        Published(
            place: "Washington", latitude: 38.8951, longitude: -77.0364, minute: utc(2025, 1, 13, 22, 8),
            isSunrise: false),
        // Washington, D.C., 12 February 2025: sunrise 7:03 a.m., sunset 5:43 p.m. EST.
        Published(
            place: "Washington", latitude: 38.8951, longitude: -77.0364, minute: utc(2025, 2, 12, 12, 3),
            isSunrise: true),
        Published(
            place: "Washington", latitude: 38.8951, longitude: -77.0364, minute: utc(2025, 2, 12, 22, 43),
            isSunrise: false),
        // Chichester, 21 December 2021: sunrise 8:03 a.m., sunset 3:59 p.m. GMT.
        Published(
            place: "Chichester", latitude: 50.8365, longitude: -0.7792, minute: utc(2021, 12, 21, 8, 3),
            isSunrise: true),
        Published(
            place: "Chichester", latitude: 50.8365, longitude: -0.7792, minute: utc(2021, 12, 21, 15, 59),
            isSunrise: false),
        // Melbourne, 21 June 2013: sunset 5:08 p.m. AEST (UTC+10).
        Published(
            place: "Melbourne", latitude: -37.8136, longitude: 144.9631, minute: utc(2013, 6, 21, 7, 8),
            isSunrise: false),
    ]

    @Test(
        "sunrise and sunset found from the elevation agree with the published times to the minute", arguments: published
    )
    func risingAndSetting(_ event: Published) {
        // Search the moment the sun's centre crosses -0.833° within two hours of the published minute.
        var low = event.minute - 7_200
        var high = event.minute + 7_200
        func daylight(_ seconds: Int64) -> Bool {
            SolarPosition.isDaylight(
                latitude: event.latitude, longitude: event.longitude, at: Timestamp(seconds: seconds, nanos: 0))
        }
        #expect(daylight(low) != event.isSunrise)
        #expect(daylight(high) == event.isSunrise)
        while high - low > 1 {
            let middle = (low + high) / 2
            if daylight(middle) == event.isSunrise { high = middle } else { low = middle }
        }
        // The figures are rounded to the minute, for city coordinates their sources do not give to
        // the second of arc: agreeing to the minute means less than a minute apart. (Measured: 8 to
        // 32 seconds either way.)
        #expect(abs(high - event.minute) < 60, "computed \(high - event.minute) s from the published minute")
    }

    @Test("the sun is high at noon and far below at midnight in Washington in January")
    func noonAndMidnight() {
        let noon = SolarPosition.elevation(
            latitude: 38.8951, longitude: -77.0364, at: Timestamp(seconds: Self.utc(2025, 1, 13, 17, 17), nanos: 0))
        // The published maximum altitude that day is 29.8°.
        #expect(abs(noon - 29.8) < 0.1)
        let midnight = SolarPosition.elevation(
            latitude: 38.8951, longitude: -77.0364, at: Timestamp(seconds: Self.utc(2025, 1, 14, 5, 17), nanos: 0))
        #expect(midnight < -60)
    }
}
