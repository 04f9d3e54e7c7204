import ProcessMeasures

/// The numbers of one run, printed by FollowLoad as one JSON object on one line.
struct FollowReport {
    var trips: Int
    var intervalSeconds: Double
    var warmupSeconds: Double
    var registrationSpreadSeconds: Double
    /// The measured window as it actually lasted.
    var measuredSeconds: Double
    var cpuSeconds: Double
    var residentBaseline: ResidentMemory
    var residentEnd: ResidentMemory
    /// The serialized size of every held trip, summed: the trips' own data, encoded.
    var encodedTripBytes: Int
    var tripsHeld: Int
    var followedAtEnd: Int
    var endedTrips: Int
    /// Trips whose subscriber never got "trip updated", in the whole run.
    var tripsNeverUpdated: Int
    var window: FollowRecorder.Window

    var cpuShareOfOneCore: Double { cpuSeconds / measuredSeconds }
    var memoryPerTrip: Double { Double(residentEnd.current - residentBaseline.current) / Double(trips) }
    var encodedBytesPerTrip: Double { Double(encodedTripBytes) / Double(trips) }

    /// One JSON object on one line, keys in a fixed order; null where there was nothing to measure.
    var jsonLine: String {
        let failures = window.failures.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }
        let fields: [(String, String)] = [
            ("trips", "\(trips)"),
            ("intervalSeconds", Self.number(intervalSeconds)),
            ("warmupSeconds", Self.number(warmupSeconds)),
            ("registrationSpreadSeconds", Self.number(registrationSpreadSeconds)),
            ("measuredSeconds", Self.number(measuredSeconds)),
            ("cpuSeconds", Self.number(cpuSeconds)),
            ("cpuShareOfOneCore", Self.number(cpuShareOfOneCore)),
            ("rssBaselineBytes", "\(residentBaseline.current)"),
            ("rssEndBytes", "\(residentEnd.current)"),
            ("rssPeakBytes", "\(residentEnd.peak)"),
            ("memoryPerTripBytes", Self.number(memoryPerTrip)),
            ("encodedTripBytesTotal", "\(encodedTripBytes)"),
            ("encodedTripBytesPerTrip", Self.number(encodedBytesPerTrip)),
            ("overheadPerTripBytes", Self.number(memoryPerTrip - encodedBytesPerTrip)),
            ("tripsHeldAtEnd", "\(tripsHeld)"),
            ("followedAtEnd", "\(followedAtEnd)"),
            ("endedTrips", "\(endedTrips)"),
            ("tripsNeverUpdated", "\(tripsNeverUpdated)"),
            ("tripUpdates", "\(window.tripUpdates)"),
            ("tripUpdatesPerSecond", Self.number(Double(window.tripUpdates) / measuredSeconds)),
            ("expectedRefreshesPerSecond", Self.number(Double(followedAtEnd) / intervalSeconds)),
            ("locationUpdates", "\(window.locationUpdates)"),
            ("failures", "\(window.failureCount)"),
            ("failuresByCode", "{" + failures.joined(separator: ", ") + "}"),
            ("locationAgeMsMean", Self.number(window.locationAge.meanMilliseconds)),
            ("locationAgeMsP50", Self.number(window.locationAge.percentileMilliseconds(0.5))),
            ("locationAgeMsP90", Self.number(window.locationAge.percentileMilliseconds(0.9))),
            ("locationAgeMsP99", Self.number(window.locationAge.percentileMilliseconds(0.99))),
            (
                "locationAgeMsMax",
                Self.number(window.locationAge.count > 0 ? window.locationAge.maximumMilliseconds : nil)
            ),
            ("locationAgeNegative", "\(window.locationAge.negative)"),
            ("updateIntervalMsP50", Self.number(window.updateInterval.percentileMilliseconds(0.5))),
            ("updateIntervalMsP99", Self.number(window.updateInterval.percentileMilliseconds(0.99))),
            (
                "updateIntervalMsMax",
                Self.number(window.updateInterval.count > 0 ? window.updateInterval.maximumMilliseconds : nil)
            ),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A JSON number to three decimals, or null.
    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        let thousandths = (value * 1000).rounded()
        let whole = Int(thousandths / 1000)
        let fraction = abs(Int(thousandths) % 1000)
        let sign = thousandths < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole)." + String(repeating: "0", count: 3 - "\(fraction)".count) + "\(fraction)"
    }
}
