public import FleetEngineCodec

/// What a ``TripProgressMonitor`` tells those who listen: one method per ``TripProgressEvent``,
/// each with an empty default. Called in event order on the task that refreshes the trip: by
/// default on the client's event loop, where a listener that blocks holds up every call of the
/// client (see ``TripService``'s `refreshExecutor`).
public protocol TripProgressListener: AnyObject, Sendable {
    /// The vehicle reached `waypoint`.
    func progressMonitor(_ monitor: TripProgressMonitor, didArriveAt waypoint: TripWaypoint)
    /// The route to the next destination is new.
    func progressMonitor(_ monitor: TripProgressMonitor, didChangeRoute route: [LatLng])
    /// The time to the next destination, in seconds.
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingTime seconds: Double)
    /// The distance to the next destination, in metres.
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingDistance meters: Double)
    /// The traffic delay category changed.
    func progressMonitor(_ monitor: TripProgressMonitor, didChangeDelayCategory category: DelayCategory)
    /// The suggested lighting changed.
    func progressMonitor(_ monitor: TripProgressMonitor, didChangeSuggestedLightingMode mode: LightingMode)
    /// The vehicle goes this many percent above the limit (0: no longer speeding).
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateSpeedingPercentage percent: Double)
    /// The vehicle's road-snapped location changed.
    func progressMonitor(_ monitor: TripProgressMonitor, didUpdateLocation location: RoadSnappedLocation)
}

extension TripProgressListener {
    public func progressMonitor(_ monitor: TripProgressMonitor, didArriveAt waypoint: TripWaypoint) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didChangeRoute route: [LatLng]) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingTime seconds: Double) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didUpdateRemainingDistance meters: Double) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didChangeDelayCategory category: DelayCategory) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didChangeSuggestedLightingMode mode: LightingMode) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didUpdateSpeedingPercentage percent: Double) {}
    public func progressMonitor(_ monitor: TripProgressMonitor, didUpdateLocation location: RoadSnappedLocation) {}

    /// Calls the method for `event`.
    func deliver(_ event: TripProgressEvent, from monitor: TripProgressMonitor) {
        switch event {
        case .arrivedAtWaypoint(let waypoint): progressMonitor(monitor, didArriveAt: waypoint)
        case .routeChanged(let route): progressMonitor(monitor, didChangeRoute: route)
        case .remainingTime(let seconds): progressMonitor(monitor, didUpdateRemainingTime: seconds)
        case .remainingDistance(let meters): progressMonitor(monitor, didUpdateRemainingDistance: meters)
        case .delayCategory(let category): progressMonitor(monitor, didChangeDelayCategory: category)
        case .lightingMode(let mode): progressMonitor(monitor, didChangeSuggestedLightingMode: mode)
        case .speeding(let percent): progressMonitor(monitor, didUpdateSpeedingPercentage: percent)
        case .locationUpdated(let location): progressMonitor(monitor, didUpdateLocation: location)
        }
    }
}
