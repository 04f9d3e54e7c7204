public import FleetEngineCodec

extension TripSimulation {
    /// The trip as the server holds it `elapsed` after the simulation started.
    ///
    /// Time is taken down to the last location update (a multiple of the cadence's location interval);
    /// before zero it is zero, and from ``duration`` on the trip is `COMPLETE` and the same. The
    /// version fields (`current_route_segment_version` and the like) are left unset: the store sets
    /// them by comparing snapshots part by part.
    public func trip(at elapsed: Duration) -> Trip {
        let now = SimulationTime.nanoseconds(snapshotInstant(at: elapsed))
        let phase = phase(at: now)
        var trip = Trip()
        trip.name = plan.tripName
        trip.vehicleID = plan.vehicleID
        trip.tripType = plan.tripType
        trip.numberOfPassengers = plan.numberOfPassengers
        trip.pickupPoint = terminal(plan.pickup.point)
        trip.intermediateDestinations = plan.intermediateDestinations.map { terminal($0.point) }
        trip.dropoffPoint = terminal(plan.dropoff)
        let (status, intermediateIndex) = status(in: phase)
        trip.tripStatus = status
        trip.intermediateDestinationIndex = intermediateIndex
        trip.lastLocation = vehicleLocation(in: phase, at: now)
        recordStops(in: &trip, at: now)
        guard let next = phase.nextLeg else {
            trip.dropoffTime = SimulationTime.timestamp(start, plus: completion)
            return trip
        }
        addRoute(to: &trip, nextLeg: next, refreshedAt: refreshInstant(at: now))
        let (version, driven) = routeState(ofLeg: next, at: now)
        trip.remainingDistanceMeters = Int32((version.path.length - driven).rounded())
        trip.etaToFirstWaypoint = SimulationTime.timestamp(start, plus: version.plannedArrival)
        trip.remainingTimeToFirstWaypoint = SimulationTime.protobufDuration(version.plannedArrival - now)
        return trip
    }

    /// Where a trip is in its life.
    enum Phase: Equatable {
        /// `NEW`: the vehicle has not set off.
        case dispatching
        /// On the way to the waypoint at the end of this leg.
        case driving(leg: Int)
        /// Standing at the waypoint at the end of this leg (not the dropoff).
        case waiting(leg: Int)
        case complete

        /// The leg whose waypoint is the next one, nil when complete.
        var nextLeg: Int? {
            switch self {
            case .dispatching: 0
            case .driving(let leg): leg
            case .waiting(let leg): leg + 1
            case .complete: nil
            }
        }
    }

    func phase(at instant: Int64) -> Phase {
        guard let first = legs.first, instant >= first.departure else { return .dispatching }
        for (index, leg) in legs.enumerated() {
            if instant < leg.arrival { return .driving(leg: index) }
            if index < legs.count - 1, instant < leg.arrival + leg.wait { return .waiting(leg: index) }
        }
        return .complete
    }

    /// The last route refresh at or before `instant`.
    func refreshInstant(at instant: Int64) -> Int64 {
        max(SimulationTime.floor(instant, to: refreshInterval), eventInstants.last { $0 <= instant } ?? 0)
    }

    /// The route a leg is on at `instant` and how far along it the vehicle is: the first route, not yet
    /// begun, before the leg's departure.
    func routeState(ofLeg index: Int, at instant: Int64) -> (RouteVersion, Double) {
        let leg = legs[index]
        guard instant >= leg.departure, let version = leg.version(at: instant) else {
            return (leg.versions[0], 0)
        }
        return (version, version.distance(at: instant))
    }

    private func status(in phase: Phase) -> (TripStatus, Int32) {
        switch phase {
        case .dispatching: (.new, 0)
        case .driving(let leg): Self.status(drivingLeg: leg, legCount: legs.count)
        case .waiting(let leg): Self.status(arrivedAtLeg: leg, legCount: legs.count)
        case .complete: (.complete, Self.intermediateIndex(legs.count, legs.count))
        }
    }

    /// The route parts, as they were at the last refresh: the path and traffic to the next waypoint,
    /// and every remaining waypoint with its path, traffic, distance and ETA.
    private func addRoute(to trip: inout Trip, nextLeg: Int, refreshedAt refresh: Int64) {
        let (version, driven) = routeState(ofLeg: nextLeg, at: refresh)
        var waypoints: [TripWaypoint] = []
        var eta = version.plannedArrival
        for index in nextLeg..<legs.count {
            let leg = legs[index]
            var waypoint = bareWaypoint(leg)
            let path: [LatLng]
            let traffic: ConsumableTrafficPolyline
            if index == nextLeg {
                path = version.path.remaining(from: driven)
                traffic = self.traffic(on: version, from: driven, at: refresh, path: path)
                waypoint.distanceMeters = Int32((version.path.length - driven).rounded())
                waypoint.duration = SimulationTime.protobufDuration(eta - refresh)
            } else {
                let planned = leg.versions[0]
                eta += legs[index - 1].wait + leg.plannedDuration
                path = planned.path.vertices
                traffic = self.traffic(on: planned, from: 0, at: refresh, path: path)
                waypoint.distanceMeters = Int32(planned.path.length.rounded())
                waypoint.duration = SimulationTime.protobufDuration(leg.plannedDuration)
            }
            waypoint.pathToWaypoint = path
            waypoint.encodedPathToWaypoint = EncodedPolyline.encode(path)
            waypoint.trafficToWaypoint = traffic
            waypoint.eta = SimulationTime.timestamp(start, plus: eta)
            waypoints.append(waypoint)
            if index == 0 {
                trip.pickupTime = SimulationTime.timestamp(start, plus: eta + leg.wait)
            }
            if index == legs.count - 1 {
                trip.dropoffTime = SimulationTime.timestamp(start, plus: eta)
            }
        }
        trip.remainingWaypoints = waypoints
        trip.vehicleWaypoints = waypoints
        if let first = waypoints.first {
            trip.route = first.pathToWaypoint
            trip.currentRouteSegment = S2Polyline(vertices: first.pathToWaypoint).encoded
            trip.currentRouteSegmentEndPoint = bareWaypoint(legs[nextLeg])
            trip.currentRouteSegmentTraffic = first.trafficToWaypoint
        }
    }

    /// The traffic reported along `path`, the rest of `version`'s path from `distance` metres: every
    /// edge of the path in an interval, by speed, from the stretches there at `instant`.
    private func traffic(
        on version: RouteVersion,
        from distance: Double,
        at instant: Int64,
        path: [LatLng]
    ) -> ConsumableTrafficPolyline {
        var traffic = ConsumableTrafficPolyline()
        traffic.encodedPathToWaypoint = EncodedPolyline.encode(path)
        guard path.count >= 2 else { return traffic }
        // Edge j of the reported path is edge `firstEdge + j` of the version's path (see remaining(from:)).
        let firstEdge = distance > 0 ? version.path.edge(containing: distance) : 0
        let active = version.traffic.filter { $0.isActive(at: instant) }
        let severities = (0..<(path.count - 1)).map { edge in
            active.filter { $0.covers(edge: firstEdge + edge) }.map { TrafficStretch.severity($0.speed) }.max() ?? 0
        }
        var start = 0
        for edge in 1...severities.count where edge == severities.count || severities[edge] != severities[start] {
            var interval = SpeedReadingInterval()
            interval.startPolylinePointIndex = Int32(start)
            interval.endPolylinePointIndex = Int32(edge)
            interval.speed = [SpeedReadingInterval.Speed.normal, .slow, .trafficJam][severities[start]]
            traffic.speedReadingInterval.append(interval)
            start = edge
        }
        return traffic
    }

    /// The vehicle as it reports itself: on the road, with a heading towards the next vertex, its
    /// speed, and accuracies that vary from update to update.
    private func vehicleLocation(in phase: Phase, at now: Int64) -> VehicleLocation {
        var location = VehicleLocation()
        switch phase {
        case .dispatching:
            let path = legs[0].versions[0].path
            location.location = path.vertices.first ?? plan.vehicleStart
            location.heading = path.heading(at: 0)
            location.speed = 0
        case .driving(let leg):
            let (version, driven) = routeState(ofLeg: leg, at: now)
            location.location = version.path.point(at: driven)
            // A leg of one point (a stop where the vehicle already is) has no edge to head along.
            location.heading =
                version.path.edgeCount > 0 ? version.path.heading(at: driven) : arrivalHeading(atLeg: leg)
            // Centimetres per second: what a phone's location reports resolve.
            location.speed = (version.motion.speed(at: SimulationTime.seconds(now)) * 100).rounded() / 100
        case .waiting(let leg):
            location.location = legs[leg].destination
            location.heading = arrivalHeading(atLeg: leg)
            location.speed = 0
        case .complete:
            let last = legs[legs.count - 1]
            location.location = last.destination
            location.heading = arrivalHeading(atLeg: legs.count - 1)
            location.speed = 0
        }
        var jitter = SplitMix64.derived(from: seed, 3, UInt64(now / tick))
        location.horizontalAccuracy = (jitter.unit(in: 3...12) * 10).rounded() / 10
        location.headingAccuracy = (jitter.unit(in: 5...20) * 10).rounded() / 10
        location.speedAccuracy = (jitter.unit(in: 0.2...1) * 100).rounded() / 100
        location.updateTime = SimulationTime.timestamp(start, plus: now)
        location.locationSensor = .roadSnappedLocationProvider
        location.isRoadSnapped = true
        location.isGpsSensorEnabled = true
        return location
    }

    /// The heading of a vehicle standing at the end of leg `index`: that of the last edge it drove to
    /// get there, from an earlier leg when this one has no edges (a stop at the place of the one
    /// before); 0 when it has driven nowhere yet.
    private func arrivalHeading(atLeg index: Int) -> Int32 {
        for leg in legs[...index].reversed() {
            if let version = leg.versions.last, version.path.edgeCount > 0 {
                return version.path.heading(at: version.path.length)
            }
        }
        return 0
    }

    /// Where and when the vehicle actually was at the stops it has reached and left by `now`.
    private func recordStops(in trip: inout Trip, at now: Int64) {
        for (index, leg) in legs.enumerated() where now >= leg.arrival {
            let arrived = stopLocation(leg.destination, at: leg.arrival)
            let left = now >= leg.arrival + leg.wait ? stopLocation(leg.destination, at: leg.arrival + leg.wait) : nil
            if index == 0 {
                trip.actualPickupArrivalPoint = arrived
                trip.actualPickupPoint = left
                trip.pickupTime = SimulationTime.timestamp(start, plus: leg.arrival + leg.wait)
            } else if index == legs.count - 1 {
                trip.actualDropoffPoint = arrived
            } else {
                trip.actualIntermediateDestinationArrivalPoints.append(arrived)
                if let left { trip.actualIntermediateDestinations.append(left) }
            }
        }
    }

    private func stopLocation(_ point: LatLng, at instant: Int64) -> StopLocation {
        var stop = StopLocation()
        stop.point = point
        stop.timestamp = SimulationTime.timestamp(start, plus: instant)
        return stop
    }

    private func terminal(_ point: LatLng) -> TerminalLocation {
        var location = TerminalLocation()
        location.point = point
        return location
    }

    /// A waypoint without its path, distance or ETA: where, for which trip, what kind.
    private func bareWaypoint(_ leg: SimulatedLeg) -> TripWaypoint {
        var waypoint = TripWaypoint()
        waypoint.location = terminal(leg.destination)
        waypoint.tripID = plan.tripID
        waypoint.waypointType = leg.waypointType
        return waypoint
    }
}
