public import FleetEngineCodec

/// How a newly reported route relates to the one reported before it, for telling a reroute from a
/// vehicle that merely moved on.
///
/// As a vehicle drives, each new route to the same waypoint is the old one with its start cut off:
/// the vertices already passed are gone and the first point is where the vehicle now is, on an edge of
/// the old route. A reroute is any other change: a path that leaves the old one.
public enum RouteChange: Sendable, Hashable {
    /// The same vertices.
    case unchanged
    /// The rest of the old route from a point on it: the vehicle advanced along it.
    case shortened
    /// A different path.
    case replaced

    /// How far, in metres, a new route's first point may lie from the old route's edge and still count
    /// as on it; the edges are great-circle arcs, and a point placed on one is off it only by rounding.
    public static let toleranceMeters: Double = 0.5

    /// How `new` relates to `old`.
    public init(from old: [LatLng], to new: [LatLng]) {
        if old == new {
            self = .unchanged
            return
        }
        guard let first = new.first, new.count <= old.count else {
            self = .replaced
            return
        }
        // The new route keeps old's last `new.count - 1` vertices and starts on the edge before them.
        let kept = new.count - 1
        let edgeEnd = old.count - kept
        guard old.suffix(kept).elementsEqual(new.dropFirst()), edgeEnd >= 1 else {
            self = .replaced
            return
        }
        let edgeStart = old[edgeEnd - 1]
        let offset: Double
        if edgeEnd < old.count {
            offset = SphericalGeometry.distance(of: first, fromEdge: edgeStart, to: old[edgeEnd])
        } else {
            // Only the last vertex is left: the vehicle is at it.
            offset = SphericalGeometry.distance(from: edgeStart, to: first)
        }
        let onEdge = offset <= Self.toleranceMeters
        self = onEdge ? .shortened : .replaced
    }
}
