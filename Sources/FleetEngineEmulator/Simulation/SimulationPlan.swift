public import FleetEngineCodec
import FleetEngineStatus

/// What a simulated trip is: who, where it goes, how fast, what happens on the way.
///
/// The trip has legs: leg 0 from the vehicle's start to the pickup, then one leg to each intermediate
/// destination in order, and a last leg to the dropoff. Everything random about the simulation (the
/// street paths, the speeds) comes from the seed given with the plan; everything that happens
/// (reroutes, traffic, waits) is in the plan, so a test can build exactly the trip it needs.
public struct SimulationPlan: Sendable, Hashable {
    /// The trip's name, `providers/{provider_id}/trips/{trip_id}`.
    public var tripName: String

    /// The vehicle that serves the trip.
    public var vehicleID: String

    /// `EXCLUSIVE` or `SHARED`.
    public var tripType: TripType

    /// The number of passengers.
    public var numberOfPassengers: Int32

    /// Where the vehicle is when the trip is created.
    public var vehicleStart: LatLng

    /// The pickup, and the wait there.
    public var pickup: SimulationStop

    /// The intermediate destinations, in the order they are visited.
    public var intermediateDestinations: [SimulationStop]

    /// The dropoff; the trip is complete when the vehicle reaches it.
    public var dropoff: LatLng

    /// How long the trip stays `NEW`, the vehicle standing at its start, before it sets off for the
    /// pickup; at least one location interval.
    public var dispatchDelay: Duration

    /// The streets routes follow; nil for straight great-circle paths with a vertex every 150 m at most
    /// (handy when a test wants distances it can work out by hand).
    public var streets: StreetGrid?

    /// The free-flow speeds, in metres per second, each straight stretch of street is driven at (one
    /// value for a constant speed); from 0.5 to 100.
    public var speeds: ClosedRange<Double>

    /// Reroutes to make.
    public var reroutes: [PlannedReroute]

    /// Traffic to put on the way.
    public var traffic: [PlannedTraffic]

    /// How often the reported location and route change.
    public var cadence: SimulationCadence

    /// A plan; by default an exclusive trip for one passenger, dispatched after 10 seconds, driven on
    /// straight paths at 5 to 15 m/s, without reroutes or traffic.
    public init(
        tripName: String,
        vehicleID: String,
        tripType: TripType = .exclusive,
        numberOfPassengers: Int32 = 1,
        vehicleStart: LatLng,
        pickup: SimulationStop,
        intermediateDestinations: [SimulationStop] = [],
        dropoff: LatLng,
        dispatchDelay: Duration = .seconds(10),
        streets: StreetGrid? = nil,
        speeds: ClosedRange<Double> = 5...15,
        reroutes: [PlannedReroute] = [],
        traffic: [PlannedTraffic] = [],
        cadence: SimulationCadence = SimulationCadence()
    ) {
        self.tripName = tripName
        self.vehicleID = vehicleID
        self.tripType = tripType
        self.numberOfPassengers = numberOfPassengers
        self.vehicleStart = vehicleStart
        self.pickup = pickup
        self.intermediateDestinations = intermediateDestinations
        self.dropoff = dropoff
        self.dispatchDelay = dispatchDelay
        self.streets = streets
        self.speeds = speeds
        self.reroutes = reroutes
        self.traffic = traffic
        self.cadence = cadence
    }

    /// The number of legs: one to the pickup, one per intermediate destination, one to the dropoff.
    public var legCount: Int { intermediateDestinations.count + 2 }

    /// The trip id: the last component of the name.
    var tripID: String {
        TripName.lastSegment(of: tripName)
    }

    /// What is wrong with the plan, or nil when a simulation can be built from it.
    var problem: String? {
        let longest = Duration.seconds(86_400)
        let points = [vehicleStart, pickup.point, dropoff] + intermediateDestinations.map(\.point)
        if let bad = points.first(where: { !SphericalGeometry.isValid($0) }) {
            return "the point (\(bad.latitude), \(bad.longitude)) is not a latitude within ±90° and a longitude "
                + "within ±180°"
        }
        guard speeds.lowerBound.isFinite, speeds.upperBound.isFinite, speeds.lowerBound >= 0.5,
            speeds.upperBound <= 100
        else {
            return "the speeds \(speeds) m/s are not within 0.5...100 m/s"
        }
        let tick = cadence.locationInterval
        guard tick >= .milliseconds(1), tick <= .seconds(3_600) else {
            return "the location interval \(tick) is not between 1 ms and 1 hour"
        }
        let refresh = cadence.routeRefreshInterval
        guard refresh >= tick, refresh <= longest,
            SimulationTime.nanoseconds(refresh) % SimulationTime.nanoseconds(tick) == 0
        else {
            return "the route refresh interval \(refresh) is not a multiple of the location interval \(tick) "
                + "of at most a day"
        }
        let waits = [dispatchDelay, pickup.wait] + intermediateDestinations.map(\.wait)
        if let bad = waits.first(where: { $0 < .zero || $0 > longest }) {
            return "the wait \(bad) is not between 0 and a day"
        }
        if let streets, !streets.isValid {
            return "the street grid around (\(streets.centre.latitude), \(streets.centre.longitude)) needs a "
                + "centre within 80° of the equator, spacings of 20 to 2,000 m and a diagonal every 0 to "
                + "\(StreetGrid.maximumDiagonalSpacing) blocks"
        }
        for reroute in reroutes {
            guard (0..<legCount).contains(reroute.leg) else {
                return "a reroute is on leg \(reroute.leg), but the trip has legs 0 to \(legCount - 1)"
            }
            guard reroute.fraction.isFinite, reroute.fraction > 0, reroute.fraction < 1 else {
                return "a reroute on leg \(reroute.leg) is at \(reroute.fraction) of it, not strictly between 0 and 1"
            }
        }
        for jam in traffic {
            guard (0..<legCount).contains(jam.leg) else {
                return "traffic is on leg \(jam.leg), but the trip has legs 0 to \(legCount - 1)"
            }
            guard jam.stretch.lowerBound.isFinite, jam.stretch.upperBound.isFinite, jam.stretch.lowerBound >= 0,
                jam.stretch.upperBound <= 1, jam.stretch.lowerBound < jam.stretch.upperBound
            else {
                return "traffic on leg \(jam.leg) covers \(jam.stretch) of it, not a stretch within 0...1"
            }
            guard jam.appearsAfter >= .zero, jam.appearsAfter <= longest, jam.lasts > .zero, jam.lasts <= longest
            else {
                return "traffic on leg \(jam.leg) appears after \(jam.appearsAfter) for \(jam.lasts); both must be "
                    + "within a day, and it must last"
            }
        }
        return nil
    }
}
