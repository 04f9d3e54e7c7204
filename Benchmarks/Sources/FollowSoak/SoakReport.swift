import TripTracking

/// What the soak found, with a verdict on each point, as one JSON object.
struct SoakReport {
    var command: FollowSoak
    var trips: Int
    var seconds: Double
    var faultSeconds: Double
    var records: [SoakTripRecord]
    var mismatches: [String]
    var longestQuietGap: Duration?
    var samples: [SoakSample]
    var descriptorsAtStart: Int
    var descriptorsAtEnd: Int
    var calls: Int

    /// The longest a trip may go without an update once the faults stopped: a refresh waiting out
    /// the longest backoff after failures (a minute), one interval, and 10 s for the call itself.
    var quietGapBound: Double { 60 + command.interval + 10 }

    var json: String {
        var completed = 0
        var endedOtherwise: [String: Int] = [:]
        var stillFollowed = 0
        var updates = 0
        var failures: [String: Int] = [:]
        for record in records {
            updates += record.updates
            for (code, count) in record.failures { failures[code, default: 0] += count }
            switch record.ended {
            case .ended(.complete): completed += 1
            case nil: stillFollowed += 1
            case let state?: endedOtherwise["\(state)", default: 0] += 1
            }
        }
        // Memory after the warm-up, against the most it reached later on.
        let warm = samples.first { $0.seconds >= command.warmupMinutes * 60 }
        let later = samples.filter { $0.seconds > (warm?.seconds ?? .infinity) }
        let highest = later.map(\.residentBytes).max()
        let growth = warm.flatMap { warm in
            highest.map { Double($0 - warm.residentBytes) / Double(warm.residentBytes) }
        }
        let descriptorsMost = samples.map(\.openFileDescriptors).max() ?? -1
        let gap = longestQuietGap.map(\.inSeconds)
        let verdicts = [
            "everyTripCompleted": completed == trips,
            "finalStatesEqualFullFetch": mismatches.isEmpty && completed > 0,
            "quietGapWithinBound": gap.map { $0 <= quietGapBound } ?? false,
            "memoryGrowthUnder5Percent": growth.map { $0 < 0.05 } ?? false,
            // Connections come and go (GOAWAY, drops), each with two sockets in this process, the
            // client's and the emulator's: two connections' worth of slack.
            "noDescriptorLeak": warm.map { descriptorsAtEnd <= $0.openFileDescriptors + 4 } ?? false,
        ]
        let fields: [(String, String)] = [
            ("trips", "\(trips)"), ("intervalSeconds", "\(command.interval)"), ("speed", "\(command.speed)"),
            ("seconds", Self.number(seconds)), ("faultSeconds", Self.number(faultSeconds)),
            (
                "faults",
                "{\"failEvery\":\(command.failEvery),\"delayEvery\":\(command.delayEvery),"
                    + "\"delaySeconds\":\(command.delaySeconds),\"dropConnectionAtInEveryOtherMinute\":"
                    + "\(command.dropConnectionAt),\"goawayAfterSecondsWholeRun\":\(command.goawayAfterSeconds)}"
            ),
            ("emulatorCalls", "\(calls)"), ("tripUpdates", "\(updates)"),
            ("failedUpdatesByCode", Self.object(failures)), ("completed", "\(completed)"),
            ("endedOtherwise", Self.object(endedOtherwise)), ("stillFollowed", "\(stillFollowed)"),
            ("finalStateMismatches", "[" + mismatches.map { "\"\($0)\"" }.joined(separator: ",") + "]"),
            ("longestQuietGapSeconds", gap.map(Self.number) ?? "null"),
            ("quietGapBoundSeconds", Self.number(quietGapBound)),
            ("residentAfterWarmupBytes", warm.map { "\($0.residentBytes)" } ?? "null"),
            ("residentHighestLaterBytes", highest.map { "\($0)" } ?? "null"),
            ("residentGrowthPercent", growth.map { Self.number($0 * 100) } ?? "null"),
            ("descriptorsAtStart", "\(descriptorsAtStart)"),
            ("descriptorsAfterWarmup", warm.map { "\($0.openFileDescriptors)" } ?? "null"),
            ("descriptorsAtEnd", "\(descriptorsAtEnd)"),
            ("descriptorsMost", "\(descriptorsMost)"),
            ("verdicts", Self.object(verdicts.mapValues { "\($0)" })),
            ("samples", "[" + samples.map(\.jsonObject).joined(separator: ",") + "]"),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private static func number(_ value: Double) -> String {
        String(Double((value * 1000).rounded()) / 1000)
    }

    private static func object(_ counts: [String: some CustomStringConvertible]) -> String {
        "{" + counts.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }
}
