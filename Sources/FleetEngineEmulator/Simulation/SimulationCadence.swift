/// How often a simulated trip's reported parts change.
///
/// Fleet Engine versions the route-related parts of a trip (`current_route_segment`, its traffic, the
/// remaining waypoints) and a client that echoes a version back is spared the part until it changes.
/// That only helps if routes do not change on every location update, and neither do they in Fleet
/// Engine: the Driver SDK reports locations every few seconds but routes far less often. So the
/// simulation has two clocks:
///
/// - **Location**: `last_location` and the live numbers measured from it (`remaining_distance_meters`,
///   `remaining_time_to_first_waypoint`) change every `locationInterval` of simulated time; the
///   vehicle's reported position is where it was at the last multiple of that interval. Every event
///   (a departure, an arrival, a reroute, traffic appearing or clearing) happens on such a multiple.
/// - **Route**: `route`, `current_route_segment`, its end point and traffic, and the remaining
///   waypoints with their paths, distances and ETAs, are as they were at the last *route refresh*:
///   every multiple of `routeRefreshInterval`, and every event.
public struct SimulationCadence: Sendable, Hashable {
    /// How often the vehicle reports its location; every event time is a multiple of it.
    public var locationInterval: Duration

    /// How often the reported route is refreshed when nothing else refreshes it.
    public var routeRefreshInterval: Duration

    /// Locations every second and a route refresh every 30 seconds, as the defaults.
    public init(locationInterval: Duration = .seconds(1), routeRefreshInterval: Duration = .seconds(30)) {
        self.locationInterval = locationInterval
        self.routeRefreshInterval = routeRefreshInterval
    }
}
