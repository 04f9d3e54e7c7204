/// How far along a path a vehicle is at each moment: the vehicle leaves the path's start at
/// `departure` and drives every edge at its free-flow speed, slowed wherever and whenever traffic is.
///
/// The motion is piecewise linear in time: between two knots the speed is constant. A knot falls at
/// every vertex and at every moment traffic on the current edge appears or clears, so the profile is
/// exact, with no time step.
struct MotionProfile: Sendable, Hashable {
    /// Seconds since the simulation started, one per knot, increasing.
    let times: [Double]

    /// Metres along the path at each knot, not decreasing.
    let distances: [Double]

    init(path: SimulatedPath, departure: Double, traffic: [TrafficStretch]) {
        var times = [departure]
        var distances = [0.0]
        var time = departure
        var distance = 0.0
        var edge = 0
        while edge < path.edgeCount {
            let stretches = traffic.filter { $0.covers(edge: edge) }
            let instant = Int64((time * 1e9).rounded())
            let factor = stretches.filter { $0.isActive(at: instant) }.map(\.speedFactor).min() ?? 1
            let speed = path.edgeSpeeds[edge] * factor
            let edgeEnd = path.cumulative[edge + 1]
            let reachesEnd = time + (edgeEnd - distance) / speed
            // The next moment the speed on this edge changes, if it comes before the edge ends.
            let change = stretches.flatMap { [SimulationTime.seconds($0.appears), SimulationTime.seconds($0.clears)] }
                .filter { $0 > time + 1e-9 }
                .min()
            if let change, change < reachesEnd {
                distance += speed * (change - time)
                time = change
            } else {
                distance = edgeEnd
                time = reachesEnd
                edge += 1
            }
            times.append(time)
            distances.append(distance)
        }
        self.times = times
        self.distances = distances
    }

    /// When the vehicle reaches the end of the path, in seconds.
    var arrival: Double { times.last ?? 0 }

    /// Metres along the path at `time` seconds: 0 before departure, the path's length after arrival.
    func distance(at time: Double) -> Double {
        guard let first = times.first, let last = times.last, time > first else { return 0 }
        guard time < last else { return distances.last ?? 0 }
        let knot = knot(before: time)
        let fraction = (time - times[knot]) / (times[knot + 1] - times[knot])
        return distances[knot] + (distances[knot + 1] - distances[knot]) * fraction
    }

    /// The speed in metres per second at `time`, the speed it moves on with at a knot; 0 before
    /// departure and from arrival on.
    func speed(at time: Double) -> Double {
        guard let first = times.first, let last = times.last, time >= first, time < last else { return 0 }
        let knot = knot(before: time)
        return (distances[knot + 1] - distances[knot]) / (times[knot + 1] - times[knot])
    }

    /// When the vehicle has driven `distance` metres, in seconds; the arrival if never.
    func time(reaching distance: Double) -> Double {
        guard distance > 0 else { return times.first ?? 0 }
        guard let index = distances.firstIndex(where: { $0 >= distance }), index > 0 else { return arrival }
        let fraction = (distance - distances[index - 1]) / (distances[index] - distances[index - 1])
        return times[index - 1] + (times[index] - times[index - 1]) * fraction
    }

    /// The last knot at or before `time`, with a knot after it.
    private func knot(before time: Double) -> Int {
        var low = 0
        var high = times.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if times[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
