public import FleetEngineCodec

extension TripSimulation {
    /// `count` varied trips for `providerID`, in the preset cities, all starting at `start`; the same
    /// seed gives the same trips.
    ///
    /// The trips differ in city, distances, passengers, dispatch delay and waits. Every third trip
    /// (the second, fifth, ...) has one or two intermediate destinations and every fourth (the third,
    /// seventh, ...) is rerouted once, so even a handful of trips has both; others may have them too.
    /// Traffic appears on about half of the legs. Trips are named
    /// `providers/{providerID}/trips/sim-{seed in hex}-{index}`, served by `vehicle-{seed in hex}-{index}`.
    public static func seeded(providerID: String, count: Int, seed: UInt64, start: Timestamp) -> [TripSimulation] {
        (0..<max(0, count)).map { index in
            var generator = SplitMix64.derived(from: seed, 0x5EED, UInt64(index))
            let plan = randomPlan(providerID: providerID, seed: seed, index: index, using: &generator)
            return TripSimulation(validated: plan, seed: generator.next(), start: start)
        }
    }

    private static func randomPlan(
        providerID: String,
        seed: UInt64,
        index: Int,
        using generator: inout SplitMix64
    ) -> SimulationPlan {
        let city = SimulationCity.all[generator.integer(in: 0...(SimulationCity.all.count - 1))]
        let suffix = "\(String(seed, radix: 16))-\(index)"
        let vehicleStart = randomPoint(in: city, from: city.streets.centre, within: 300...2_500, using: &generator)
        let pickupPoint = randomPoint(in: city, from: vehicleStart, within: 400...2_000, using: &generator)
        let stopCount = index % 3 == 1 ? generator.integer(in: 1...2) : (generator.chance(0.15) ? 1 : 0)
        var previous = pickupPoint
        var intermediates: [SimulationStop] = []
        for _ in 0..<stopCount {
            let point = randomPoint(in: city, from: previous, within: 700...2_500, using: &generator)
            intermediates.append(SimulationStop(point: point, wait: .seconds(generator.integer(in: 10...60))))
            previous = point
        }
        let dropoff = randomPoint(in: city, from: previous, within: 1_000...4_000, using: &generator)
        let legCount = stopCount + 2
        var reroutes: [PlannedReroute] = []
        if index % 4 == 2 || generator.chance(0.2) {
            reroutes.append(
                PlannedReroute(leg: generator.integer(in: 0...(legCount - 1)), fraction: generator.unit(in: 0.25...0.6))
            )
        }
        var traffic: [PlannedTraffic] = []
        for leg in 0..<legCount where generator.chance(0.5) {
            let from = generator.unit(in: 0.15...0.6)
            traffic.append(
                PlannedTraffic(
                    leg: leg,
                    stretch: from...(from + generator.unit(in: 0.1...0.3)),
                    appearsAfter: .seconds(generator.integer(in: 0...120)),
                    lasts: .seconds(generator.integer(in: 60...300)),
                    speed: generator.chance(0.3) ? .trafficJam : .slow
                )
            )
        }
        return SimulationPlan(
            tripName: "providers/\(providerID)/trips/sim-\(suffix)",
            vehicleID: "vehicle-\(suffix)",
            tripType: generator.chance(0.2) ? .shared : .exclusive,
            numberOfPassengers: Int32(generator.integer(in: 1...4)),
            vehicleStart: vehicleStart,
            pickup: SimulationStop(point: pickupPoint, wait: .seconds(generator.integer(in: 15...90))),
            intermediateDestinations: intermediates,
            dropoff: dropoff,
            dispatchDelay: .seconds(generator.integer(in: 3...30)),
            streets: city.streets,
            reroutes: reroutes,
            traffic: traffic
        )
    }

    /// A point `distance` metres from `origin` in a random direction, tried a few times to stay within
    /// the city's radius, and rounded to 1e-6 degrees (about 10 cm) as addresses are.
    private static func randomPoint(
        in city: SimulationCity,
        from origin: LatLng,
        within distance: ClosedRange<Double>,
        using generator: inout SplitMix64
    ) -> LatLng {
        var point = origin
        for _ in 0..<8 {
            point = SphericalGeometry.destination(
                from: origin,
                bearing: generator.unit(in: 0...360),
                distance: generator.unit(in: distance)
            )
            if SphericalGeometry.distance(from: city.streets.centre, to: point) <= city.radiusMeters { break }
        }
        return SphericalGeometry.point(
            latitude: (point.latitude * 1e6).rounded() / 1e6,
            longitude: (point.longitude * 1e6).rounded() / 1e6
        )
    }
}
