public import FleetEngineCodec

/// How much traffic delays the vehicle on the way to its next destination, as the Navigation SDK
/// grades it.
///
/// Graded from the traffic Fleet Engine reports along the active route
/// (`current_route_segment_traffic`): each speed reading interval covers a stretch between two
/// points of the path the traffic comes with (`encoded_path_to_waypoint`, or the active route when
/// the traffic has no readable path), and weighs by that stretch's length in metres. A stretch not
/// listed moves at normal speed. A slow stretch is taken to take twice as long as at normal speed
/// and a jammed one four times as long, so the expected delay, as a share of the time at normal
/// speed, is `(slow metres × 1 + jammed metres × 3) / path metres`. Under 10 % is light, under 30 %
/// medium, from 30 % on heavy. Without traffic, or without a path of some length for it, there is
/// no data.
public enum DelayCategory: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No traffic data for the route.
    case noData = 0
    /// The expected delay is 30 % of the travel time or more.
    case heavy = 1
    /// The expected delay is 10 % to 30 %.
    case medium = 2
    /// Under 10 %.
    case light = 3

    /// The category of the traffic along `route`: its intervals index into the traffic's own
    /// path when it has one, else into `route`.
    public init(route: [LatLng]?, traffic: ConsumableTrafficPolyline?) {
        guard let traffic else {
            self = .noData
            return
        }
        let ownPath =
            traffic.encodedPathToWaypoint.isEmpty ? nil : EncodedPolyline.decode(traffic.encodedPathToWaypoint)
        guard let path = ownPath.flatMap({ $0.count >= 2 ? $0 : nil }) ?? route, path.count >= 2 else {
            self = .noData
            return
        }
        var edgeLengths: [Double] = []
        edgeLengths.reserveCapacity(path.count - 1)
        for index in 1..<path.count {
            edgeLengths.append(path[index - 1].distance(to: path[index]))
        }
        let total = edgeLengths.reduce(0, +)
        guard total > 0, total.isFinite else {
            self = .noData
            return
        }
        var delay = 0.0
        for interval in traffic.speedReadingInterval {
            let start = max(0, Int(interval.startPolylinePointIndex))
            let end = min(edgeLengths.count, Int(interval.endPolylinePointIndex))
            guard start < end else { continue }
            let length = edgeLengths[start..<end].reduce(0, +)
            switch interval.speed {
            case .slow: delay += length
            case .trafficJam: delay += 3 * length
            default: break
            }
        }
        let share = delay / total
        self = share >= 0.30 ? .heavy : share >= 0.10 ? .medium : .light
    }

    /// `noData`, `heavy`, `medium` or `light`.
    public var description: String {
        switch self {
        case .noData: "noData"
        case .heavy: "heavy"
        case .medium: "medium"
        case .light: "light"
        }
    }
}
