import FleetEngineCodec

/// A path a simulated vehicle drives: its vertices, the distance driven at each, and the speed it
/// drives each edge at in free-flowing traffic.
struct SimulatedPath: Sendable, Hashable {
    /// The points, first to last; no two neighbours coincide.
    let vertices: [LatLng]

    /// The haversine distance along the path from its first vertex to each vertex, in metres.
    let cumulative: [Double]

    /// The free-flow speed of each edge (from vertex `i` to `i + 1`), in metres per second.
    let edgeSpeeds: [Double]

    /// Points closer than this, in metres, are one point: a path keeps only the first of them.
    static let coincidentMeters: Double = 0.01

    /// Edges that turn by more than this many degrees start a new stretch of street, with its own speed.
    private static let turnDegrees: Double = 25

    /// A path through `points`, with a speed per straight stretch of street drawn from `speeds`.
    init(points: [LatLng], speeds: ClosedRange<Double>, using generator: inout SplitMix64) {
        var vertices: [LatLng] = []
        for point in points {
            // Coincident neighbours would make an edge of length 0 and an undefined heading.
            if let last = vertices.last, SphericalGeometry.distance(from: last, to: point) < Self.coincidentMeters {
                continue
            }
            vertices.append(point)
        }
        if vertices.isEmpty, let first = points.first { vertices = [first] }
        var cumulative: [Double] = [0]
        var edgeSpeeds: [Double] = []
        var previousBearing: Double?
        var speed = generator.unit(in: speeds)
        for index in vertices.indices.dropFirst() {
            let start = vertices[index - 1]
            let end = vertices[index]
            cumulative.append((cumulative.last ?? 0) + SphericalGeometry.distance(from: start, to: end))
            let bearing = SphericalGeometry.bearing(from: start, to: end)
            if let previousBearing {
                let turn = abs(bearing - previousBearing)
                if min(turn, 360 - turn) > Self.turnDegrees { speed = generator.unit(in: speeds) }
            }
            previousBearing = bearing
            edgeSpeeds.append(speed)
        }
        self.vertices = vertices
        self.cumulative = cumulative
        self.edgeSpeeds = edgeSpeeds
    }

    /// The path's length in metres.
    var length: Double { cumulative.last ?? 0 }

    var edgeCount: Int { edgeSpeeds.count }

    /// The edge the vehicle is on after `distance` metres: the last edge whose start it has reached.
    /// 0 for a path without edges.
    func edge(containing distance: Double) -> Int {
        guard edgeCount > 0 else { return 0 }
        var low = 0
        var high = edgeCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if cumulative[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The point `distance` metres along the path.
    func point(at distance: Double) -> LatLng {
        guard let last = vertices.last else { return LatLng() }
        guard distance < length, edgeCount > 0 else { return last }
        guard distance > 0 else { return vertices[0] }
        let edge = edge(containing: distance)
        let edgeLength = cumulative[edge + 1] - cumulative[edge]
        return SphericalGeometry.interpolate(
            from: vertices[edge],
            to: vertices[edge + 1],
            fraction: (distance - cumulative[edge]) / edgeLength
        )
    }

    /// The rest of the path from `distance` metres along it: that point, then every later vertex.
    func remaining(from distance: Double) -> [LatLng] {
        guard distance > 0 else { return vertices }
        guard distance < length, edgeCount > 0 else { return vertices.last.map { [$0] } ?? [] }
        let edge = edge(containing: distance)
        return [point(at: distance)] + vertices[(edge + 1)...]
    }

    /// The heading of a vehicle `distance` metres along: towards the next vertex, or, at the end, that
    /// of the last edge.
    func heading(at distance: Double) -> Int32 {
        guard edgeCount > 0 else { return 0 }
        guard distance < length else {
            return SphericalGeometry.heading(from: vertices[edgeCount - 1], to: vertices[edgeCount])
        }
        let edge = edge(containing: max(0, distance))
        return SphericalGeometry.heading(from: point(at: distance), to: vertices[edge + 1])
    }
}
