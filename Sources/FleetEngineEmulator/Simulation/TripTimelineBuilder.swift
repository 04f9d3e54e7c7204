import FleetEngineCodec

/// Works out a simulated trip's legs one after another, and the events on the way.
struct TripTimelineBuilder {
    let plan: SimulationPlan
    let seed: UInt64
    let tick: Int64

    /// The events so far, in the order recorded; sorted by time when read.
    private var recorded: [(instant: Int64, kind: SimulationEvent.Kind)] = []

    /// How far apart vertices of a straight path may be, in metres.
    static let straightEdgeMeters: Double = 150

    /// The most edges a straight path gets, however long, to keep snapshots of a plan that spans
    /// continents to a sensible size.
    static let maximumStraightEdges = 2_000

    init(plan: SimulationPlan, seed: UInt64, tick: Int64) {
        self.plan = plan
        self.seed = seed
        self.tick = tick
    }

    var events: [SimulationEvent] {
        recorded.enumerated()
            .sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
            .map { SimulationEvent(time: SimulationTime.duration($0.element.instant), kind: $0.element.kind) }
    }

    mutating func record(_ kind: SimulationEvent.Kind, at instant: Int64) {
        recorded.append((instant, kind))
    }

    /// Leg `index`, from `origin` to `destination`, setting off at `departure`: its first route, its
    /// reroutes and its traffic, recording the reroutes and traffic changes.
    mutating func leg(
        _ index: Int,
        from origin: LatLng,
        to destination: LatLng,
        type: WaypointType,
        departure: Int64,
        wait: Int64
    ) -> SimulatedLeg {
        // Separate streams for paths and speeds, per leg, so changing one never moves the other.
        var geometry = SplitMix64.derived(from: seed, 1, UInt64(index))
        var speeds = SplitMix64.derived(from: seed, 2, UInt64(index))
        let firstPath = SimulatedPath(
            points: route(from: origin, to: destination, using: &geometry),
            speeds: plan.speeds,
            using: &speeds
        )
        let traffic = plan.traffic.filter { $0.leg == index }.compactMap {
            stretch($0, on: firstPath, departure: departure)
        }
        var versions: [RouteVersion] = []
        var current = version(of: firstPath, traffic: traffic, from: departure, drivenBefore: 0)
        for reroute in plan.reroutes.filter({ $0.leg == index }).sorted(by: { $0.fraction < $1.fraction }) {
            let ahead = reroute.fraction * firstPath.length - current.drivenBefore
            guard ahead > 0 else { continue }
            let reached = current.motion.time(reaching: ahead)
            let instant = max(SimulationTime.ceiling(seconds: reached, to: tick), current.activeFrom + tick)
            guard instant < current.plannedArrival else { continue }
            let driven = current.distance(at: instant)
            let position = current.path.point(at: driven)
            let detour = self.detour(
                from: position,
                to: destination,
                avoiding: current.path.remaining(from: driven),
                using: &geometry
            )
            versions.append(current.ending(at: instant))
            record(.rerouted(leg: index), at: instant)
            current = version(
                of: SimulatedPath(points: detour, speeds: plan.speeds, using: &speeds),
                traffic: [],
                from: instant,
                drivenBefore: current.drivenBefore + driven
            )
        }
        versions.append(current)
        for version in versions {
            for stretch in version.traffic {
                if (version.activeFrom..<version.activeUntil).contains(stretch.appears) {
                    record(.trafficAppeared(stretch.speed, leg: index), at: stretch.appears)
                }
                if (version.activeFrom..<version.activeUntil).contains(stretch.clears) {
                    record(.trafficCleared(leg: index), at: stretch.clears)
                }
            }
        }
        return SimulatedLeg(
            destination: destination,
            waypointType: type,
            departure: departure,
            versions: versions,
            arrival: current.plannedArrival,
            wait: wait
        )
    }

    private func version(
        of path: SimulatedPath,
        traffic: [TrafficStretch],
        from instant: Int64,
        drivenBefore: Double
    ) -> RouteVersion {
        let motion = MotionProfile(path: path, departure: SimulationTime.seconds(instant), traffic: traffic)
        // Reported on the first location update at or after the vehicle gets there, and never on the
        // update it set off on, so every status lasts at least one update.
        let arrival = max(SimulationTime.ceiling(seconds: motion.arrival, to: tick), instant + tick)
        return RouteVersion(
            path: path,
            traffic: traffic,
            motion: motion,
            activeFrom: instant,
            activeUntil: arrival,
            plannedArrival: arrival,
            drivenBefore: drivenBefore
        )
    }

    /// Planned traffic placed on whole edges of `path`; nil on a path without edges.
    private func stretch(_ planned: PlannedTraffic, on path: SimulatedPath, departure: Int64) -> TrafficStretch? {
        guard path.edgeCount > 0 else { return nil }
        let first = min(nearestVertex(to: planned.stretch.lowerBound * path.length, on: path), path.edgeCount - 1)
        let end = max(nearestVertex(to: planned.stretch.upperBound * path.length, on: path), first + 1)
        let appears = departure + SimulationTime.ceiling(SimulationTime.nanoseconds(planned.appearsAfter), to: tick)
        let lasts = max(SimulationTime.ceiling(SimulationTime.nanoseconds(planned.lasts), to: tick), tick)
        return TrafficStretch(
            firstEdge: first,
            endEdge: end,
            speed: planned.speed == .trafficJam ? .trafficJam : .slow,
            appears: appears,
            clears: appears + lasts
        )
    }

    private func nearestVertex(to distance: Double, on path: SimulatedPath) -> Int {
        var best = 0
        for index in path.cumulative.indices
        where abs(path.cumulative[index] - distance) < abs(path.cumulative[best] - distance) {
            best = index
        }
        return best
    }

    /// A driving route: along the streets when the plan has them and they reach both ends, otherwise
    /// straight.
    private func route(from start: LatLng, to end: LatLng, using generator: inout SplitMix64) -> [LatLng] {
        // A stop where the vehicle already is needs no driving, not even out to the street and back.
        if SphericalGeometry.distance(from: start, to: end) < SimulatedPath.coincidentMeters { return [start, end] }
        if let streets = plan.streets, streets.reaches(start), streets.reaches(end) {
            return streets.route(from: start, to: end, using: &generator)
        }
        let length = SphericalGeometry.distance(from: start, to: end)
        let edges = min(max(1, Int((length / Self.straightEdgeMeters).rounded(.up))), Self.maximumStraightEdges)
        return (0...edges).map { index in
            index == edges
                ? end : SphericalGeometry.interpolate(from: start, to: end, fraction: Double(index) / Double(edges))
        }
    }

    /// A different way from `start` to `end` than `avoided`: by a point off to one side of the way
    /// there (a street corner when there are streets), trying the other side if the first gives the
    /// same path.
    private func detour(
        from start: LatLng,
        to end: LatLng,
        avoiding avoided: [LatLng],
        using generator: inout SplitMix64
    ) -> [LatLng] {
        let length = SphericalGeometry.distance(from: start, to: end)
        let middle = SphericalGeometry.interpolate(from: start, to: end, fraction: 0.5)
        let bearing = SphericalGeometry.bearing(from: start, to: end)
        let offset = min(3_000, max(250, 0.4 * length))
        let firstSide: Double = generator.chance(0.5) ? 90 : -90
        var points: [LatLng] = []
        for side in [firstSide, -firstSide] {
            var via = SphericalGeometry.destination(from: middle, bearing: bearing + side, distance: offset)
            if let streets = plan.streets, streets.reaches(via) {
                via = streets.nearestCorner(to: via)
            }
            points = route(from: start, to: via, using: &generator)
            points += route(from: via, to: end, using: &generator).dropFirst()
            if RouteChange(from: avoided, to: points) == .replaced { break }
        }
        return points
    }
}
