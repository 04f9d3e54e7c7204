public import FleetEngineCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A synthetic street network around a city centre: a rectangular grid of avenues and cross streets,
/// turned to the city's own grid bearing, crossed by diagonal avenues every few blocks, along which
/// the simulation plans plausible driving routes.
///
/// A route from one point to another drives to the nearest street, along it to the next corner, then
/// along streets with one to three turns (or down a diagonal avenue where one runs the right way), and
/// the same in reverse at the end. Every corner it passes is a vertex, so vertices lie a block apart.
/// The grid is laid out on a local flat map of the city (metres east and north of the centre), which
/// is accurate to well under a metre per kilometre within the city; points farther than
/// ``reachMeters`` from the centre are joined by straight great-circle paths instead.
public struct StreetGrid: Sendable, Hashable {
    /// The city centre, where an avenue meets a cross street.
    public var centre: LatLng

    /// The bearing of the avenues, in degrees clockwise from north; the cross streets run at right
    /// angles to them.
    public var bearing: Double

    /// The distance between neighbouring avenues, in metres (20 or more).
    public var avenueSpacing: Double

    /// The distance between neighbouring cross streets, in metres (20 or more).
    public var streetSpacing: Double

    /// Every how many blocks a diagonal avenue runs, in each of the two diagonal directions; 0 for none,
    /// at most ``maximumDiagonalSpacing``.
    public var diagonalSpacing: Int

    /// The widest diagonal spacing, in blocks: more than the grid's reach holds at the narrowest
    /// spacing, and small enough that the search for a diagonal never overflows `Int`.
    public static let maximumDiagonalSpacing = 1_000

    /// How far from the centre the grid reaches, in metres.
    public static let reachMeters: Double = 30_000

    /// A grid around `centre`.
    public init(centre: LatLng, bearing: Double, avenueSpacing: Double, streetSpacing: Double, diagonalSpacing: Int) {
        self.centre = centre
        self.bearing = bearing
        self.avenueSpacing = avenueSpacing
        self.streetSpacing = streetSpacing
        self.diagonalSpacing = diagonalSpacing
    }

    /// Whether the grid's numbers make a network routes can be planned on.
    var isValid: Bool {
        SphericalGeometry.isValid(centre) && abs(centre.latitude) < 80 && bearing.isFinite
            && avenueSpacing.isFinite && avenueSpacing >= 20 && avenueSpacing <= 2_000
            && streetSpacing.isFinite && streetSpacing >= 20 && streetSpacing <= 2_000 && diagonalSpacing >= 0
            && diagonalSpacing <= Self.maximumDiagonalSpacing
    }

    /// The street corner nearest to `point`.
    func nearestCorner(to point: LatLng) -> LatLng {
        let block = blockCoordinates(point)
        return self.point(BlockPoint(street: block.street.rounded(), avenue: block.avenue.rounded()))
    }

    /// Whether a point is close enough to the centre for the grid to route to it.
    func reaches(_ point: LatLng) -> Bool {
        SphericalGeometry.distance(from: centre, to: point) <= Self.reachMeters
    }

    /// A driving route from `start` to `end`, both included, with random choices (turns, a diagonal)
    /// drawn from `generator`.
    func route(from start: LatLng, to end: LatLng, using generator: inout SplitMix64) -> [LatLng] {
        let from = blockCoordinates(start)
        let to = blockCoordinates(end)
        let startSnap = snap(from)
        let endSnap = snap(to)
        var corners: [BlockPoint] = [from, startSnap.onStreet]
        if startSnap.line == endSnap.line {
            corners.append(contentsOf: steps(from: startSnap.onStreet, to: endSnap.onStreet))
        } else {
            let startCorner = snap(startSnap.onStreet, alongLineOf: startSnap.line, towards: endSnap.onStreet)
            let endCorner = snap(endSnap.onStreet, alongLineOf: endSnap.line, towards: startSnap.onStreet)
            corners.append(contentsOf: steps(from: startSnap.onStreet, to: startCorner))
            corners.append(contentsOf: gridPath(from: startCorner, to: endCorner, using: &generator))
            corners.append(contentsOf: steps(from: endCorner, to: endSnap.onStreet))
        }
        corners.append(to)
        var path: [LatLng] = [start]
        for corner in corners.dropFirst().dropLast() {
            let point = self.point(corner)
            if let last = path.last, SphericalGeometry.distance(from: last, to: point) < 0.5 { continue }
            path.append(point)
        }
        if let last = path.last, path.count > 1, SphericalGeometry.distance(from: last, to: end) < 0.5 {
            path.removeLast()
        }
        path.append(end)
        return path
    }
}

extension StreetGrid {
    /// A position in blocks: `street` counts cross streets along the avenues' bearing, `avenue` counts
    /// avenues across it; whole numbers are on a street, two whole numbers are a corner.
    struct BlockPoint: Hashable {
        var street: Double
        var avenue: Double
    }

    /// A street of the grid: an avenue (at a whole `avenue` value) or a cross street (at a whole
    /// `street` value).
    enum Line: Hashable {
        case avenue(Int)
        case crossStreet(Int)
    }

    private static let metresPerDegree = SphericalGeometry.earthRadiusMeters * Double.pi / 180

    func blockCoordinates(_ point: LatLng) -> BlockPoint {
        // The map is local: a point across the antimeridian from the centre is a little east or west of
        // it, not most of the way round the Earth.
        var longitudeDelta = point.longitude - centre.longitude
        if longitudeDelta > 180 { longitudeDelta -= 360 }
        if longitudeDelta < -180 { longitudeDelta += 360 }
        let east = longitudeDelta * cos(SphericalGeometry.radians(centre.latitude)) * Self.metresPerDegree
        let north = (point.latitude - centre.latitude) * Self.metresPerDegree
        let angle = SphericalGeometry.radians(bearing)
        let along = east * sin(angle) + north * cos(angle)
        let across = east * cos(angle) - north * sin(angle)
        return BlockPoint(street: along / streetSpacing, avenue: across / avenueSpacing)
    }

    func point(_ block: BlockPoint) -> LatLng {
        let angle = SphericalGeometry.radians(bearing)
        let along = block.street * streetSpacing
        let across = block.avenue * avenueSpacing
        let east = along * sin(angle) + across * cos(angle)
        let north = along * cos(angle) - across * sin(angle)
        var longitude =
            centre.longitude + east / (cos(SphericalGeometry.radians(centre.latitude)) * Self.metresPerDegree)
        // A corner past the antimeridian is on the other side of it.
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return SphericalGeometry.point(latitude: centre.latitude + north / Self.metresPerDegree, longitude: longitude)
    }

    /// The nearest point on any street, and that street.
    private func snap(_ point: BlockPoint) -> (onStreet: BlockPoint, line: Line) {
        let nearestStreet = point.street.rounded()
        let nearestAvenue = point.avenue.rounded()
        let toCrossStreet = abs(point.street - nearestStreet) * streetSpacing
        let toAvenue = abs(point.avenue - nearestAvenue) * avenueSpacing
        if toAvenue <= toCrossStreet {
            return (BlockPoint(street: point.street, avenue: nearestAvenue), .avenue(Int(nearestAvenue)))
        }
        return (BlockPoint(street: nearestStreet, avenue: point.avenue), .crossStreet(Int(nearestStreet)))
    }

    /// The corner next to `point` on its street, in the direction of `other`.
    private func snap(_ point: BlockPoint, alongLineOf line: Line, towards other: BlockPoint) -> BlockPoint {
        switch line {
        case .avenue:
            let street = other.street >= point.street ? point.street.rounded(.up) : point.street.rounded(.down)
            return BlockPoint(street: street, avenue: point.avenue)
        case .crossStreet:
            let avenue = other.avenue >= point.avenue ? point.avenue.rounded(.up) : point.avenue.rounded(.down)
            return BlockPoint(street: point.street, avenue: avenue)
        }
    }

    /// The corners passed going straight from `start` to `end` (both on one street), then `end`.
    private func steps(from start: BlockPoint, to end: BlockPoint) -> [BlockPoint] {
        var points: [BlockPoint] = []
        if start.street == end.street {
            for avenue in wholeNumbers(strictlyBetween: start.avenue, and: end.avenue) {
                points.append(BlockPoint(street: start.street, avenue: avenue))
            }
        } else if start.avenue == end.avenue {
            for street in wholeNumbers(strictlyBetween: start.street, and: end.street) {
                points.append(BlockPoint(street: street, avenue: start.avenue))
            }
        } else {
            // A diagonal step or an approach off the grid: one straight edge.
        }
        points.append(end)
        return points
    }

    private func wholeNumbers(strictlyBetween first: Double, and second: Double) -> [Double] {
        if first < second {
            let low = first.rounded(.down) + 1
            return low < second ? Array(stride(from: low, to: second, by: 1)) : []
        }
        let high = first.rounded(.up) - 1
        return high > second ? Array(stride(from: high, to: second, by: -1)) : []
    }

    /// Corners from one corner to another, excluding the first: along a diagonal avenue where one
    /// goes the right way, otherwise a staircase of one to three turns.
    private func gridPath(from start: BlockPoint, to end: BlockPoint, using generator: inout SplitMix64) -> [BlockPoint]
    {
        let startStreet = Int(start.street)
        let startAvenue = Int(start.avenue)
        let streetSign = end.street >= start.street ? 1 : -1
        let avenueSign = end.avenue >= start.avenue ? 1 : -1
        let streetBlocks = abs(Int(end.street) - startStreet)
        let avenueBlocks = abs(Int(end.avenue) - startAvenue)
        // Moves in a frame where both counts grow: (blocks along, blocks across).
        var moves: [(Int, Int)] = []
        if let ride = diagonalRide(
            start: (startStreet, startAvenue), signs: (streetSign, avenueSign), blocks: (streetBlocks, avenueBlocks)),
            generator.chance(0.75)
        {
            moves = [(ride.entry, 0), (0, -ride.entry), (ride.length, ride.length)]
            moves.append((streetBlocks - max(ride.entry, 0) - ride.length, 0))
            moves.append((0, avenueBlocks - max(-ride.entry, 0) - ride.length))
            moves = moves.filter { $0.0 > 0 || $0.1 > 0 }
        } else {
            let turns = min(generator.integer(in: 1...3), max(1, min(streetBlocks, avenueBlocks)))
            let streetParts = split(streetBlocks, into: turns, using: &generator)
            let avenueParts = split(avenueBlocks, into: turns, using: &generator)
            let streetFirst = generator.chance(0.5)
            for index in 0..<turns {
                if streetFirst {
                    moves.append((streetParts[index], 0))
                    moves.append((0, avenueParts[index]))
                } else {
                    moves.append((0, avenueParts[index]))
                    moves.append((streetParts[index], 0))
                }
            }
        }
        var points: [BlockPoint] = []
        var street = startStreet
        var avenue = startAvenue
        for (alongBlocks, acrossBlocks) in moves where alongBlocks > 0 || acrossBlocks > 0 {
            // One corner per block; a diagonal move advances both counts at once.
            for _ in 0..<max(alongBlocks, acrossBlocks) {
                if alongBlocks > 0 { street += streetSign }
                if acrossBlocks > 0 { avenue += avenueSign }
                points.append(BlockPoint(street: Double(street), avenue: Double(avenue)))
            }
        }
        return points
    }

    /// The best diagonal avenue between two corners: where to join it, as blocks along (positive) or
    /// across (negative) from the start, and how many blocks to ride it; nil if none helps.
    private func diagonalRide(start: (Int, Int), signs: (Int, Int), blocks: (Int, Int)) -> (entry: Int, length: Int)? {
        guard diagonalSpacing > 0, blocks.0 >= 2, blocks.1 >= 2 else { return nil }
        // Riding both counts up in the moving frame is, on the grid, the family street - avenue = c when
        // the signs agree and street + avenue = c when they differ; entry = sign * (c - base).
        let sameSign = signs.0 == signs.1
        let base = sameSign ? start.0 - start.1 : start.0 + start.1
        let low = base + min(signs.0 * -blocks.1, signs.0 * blocks.0)
        let high = base + max(signs.0 * -blocks.1, signs.0 * blocks.0)
        var best: (entry: Int, length: Int)?
        var constant = low - ((low % diagonalSpacing) + diagonalSpacing) % diagonalSpacing
        while constant <= high {
            let entry = signs.0 * (constant - base)
            if entry >= -blocks.1, entry <= blocks.0 {
                let length = entry >= 0 ? min(blocks.0 - entry, blocks.1) : min(blocks.0, blocks.1 + entry)
                if length >= 2, length > best?.length ?? 0 { best = (entry, length) }
            }
            constant += diagonalSpacing
        }
        return best
    }

    /// `total` split into `parts` whole numbers that add up to it, each at least 1 when `total` allows.
    private func split(_ total: Int, into parts: Int, using generator: inout SplitMix64) -> [Int] {
        guard parts > 1 else { return [total] }
        guard total >= parts else { return [total] + Array(repeating: 0, count: parts - 1) }
        var cuts = Set<Int>()
        while cuts.count < parts - 1 {
            cuts.insert(generator.integer(in: 1...(total - 1)))
        }
        let ordered = [0] + cuts.sorted() + [total]
        return (1..<ordered.count).map { ordered[$0] - ordered[$0 - 1] }
    }
}
