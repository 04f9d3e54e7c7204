import FleetEngineCodec

/// Slow traffic or a jam on whole edges of one path, for a time.
struct TrafficStretch: Sendable, Hashable {
    /// The first edge covered.
    let firstEdge: Int

    /// The edge after the last one covered; greater than `firstEdge`.
    let endEdge: Int

    /// `SLOW` or `TRAFFIC_JAM`.
    let speed: SpeedReadingInterval.Speed

    /// When it appears, in nanoseconds of simulated time.
    let appears: Int64

    /// When it clears; after `appears`.
    let clears: Int64

    /// Whether it is there at `instant`.
    func isActive(at instant: Int64) -> Bool {
        appears <= instant && instant < clears
    }

    func covers(edge: Int) -> Bool {
        firstEdge <= edge && edge < endEdge
    }

    /// The share of free-flow speed vehicles keep in it.
    var speedFactor: Double {
        speed == .trafficJam ? 0.2 : 0.5
    }

    /// How bad a speed is, to let the worst of overlapping stretches win.
    static func severity(_ speed: SpeedReadingInterval.Speed) -> Int {
        switch speed {
        case .trafficJam: 2
        case .slow: 1
        default: 0
        }
    }
}
