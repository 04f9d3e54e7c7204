public import FleetEngineCodec
public import FleetEngineStatus

/// What a ``TripModel`` tells those registered with it: one method per event, as the Consumer
/// SDK's subscriber protocol has them. Every method has an empty default, so implement only those
/// you need.
///
/// The methods are called one at a time, in the order of the events, on the task that refreshes
/// the trip, which by default runs on the client's event loop (see ``TripService``): a subscriber
/// that blocks or takes long there delays that trip's next refresh and every call and refresh of
/// the client until it returns. Hand long work to a task of your own, create the service with
/// another `refreshExecutor`, or use ``TripModel/updates`` instead.
public protocol TripModelSubscriber: AnyObject, Sendable {
    /// Something in the trip changed: the whole trip and which fields changed. Comes before the
    /// part events of the same refresh.
    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields)
    /// The trip's status changed.
    func tripModel(_ model: TripModel, didUpdateTripStatus status: TripStatus)
    /// The distance left on the active route changed, in metres.
    func tripModel(_ model: TripModel, didUpdateActiveRouteRemainingDistance meters: Int32?)
    /// The path to the next waypoint changed.
    func tripModel(_ model: TripModel, didUpdateActiveRoute route: [LatLng]?)
    /// The vehicle's location changed.
    func tripModel(_ model: TripModel, didUpdateVehicleLocation location: VehicleLocation?)
    /// The pickup point changed.
    func tripModel(_ model: TripModel, didUpdatePickupLocation location: TerminalLocation?)
    /// The dropoff point changed.
    func tripModel(_ model: TripModel, didUpdateDropoffLocation location: TerminalLocation?)
    /// The ETA to the pickup changed.
    func tripModel(_ model: TripModel, didUpdatePickupETA eta: Timestamp?)
    /// The ETA to the dropoff changed.
    func tripModel(_ model: TripModel, didUpdateDropoffETA eta: Timestamp?)
    /// The remaining waypoints changed.
    func tripModel(_ model: TripModel, didUpdateRemainingWaypoints waypoints: [TripWaypoint]?)
    /// The intermediate destinations changed.
    func tripModel(_ model: TripModel, didUpdateIntermediateDestinations destinations: [TerminalLocation]?)
    /// The traffic along the active route changed.
    func tripModel(_ model: TripModel, didUpdateActiveRouteTraffic traffic: ConsumableTrafficPolyline?)
    /// A refresh failed; `FleetEngineError.family` says whether following recovers by itself.
    func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError)
    /// Following ended for good: after the events of a final trip (``TripModelState/ended(_:)``),
    /// or because the trip service stopped (``TripModelState/stopped``). Not in the Consumer SDK,
    /// whose app lifecycle tells it as much.
    func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState)
}

extension TripModelSubscriber {
    public func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {}
    public func tripModel(_ model: TripModel, didUpdateTripStatus status: TripStatus) {}
    public func tripModel(_ model: TripModel, didUpdateActiveRouteRemainingDistance meters: Int32?) {}
    public func tripModel(_ model: TripModel, didUpdateActiveRoute route: [LatLng]?) {}
    public func tripModel(_ model: TripModel, didUpdateVehicleLocation location: VehicleLocation?) {}
    public func tripModel(_ model: TripModel, didUpdatePickupLocation location: TerminalLocation?) {}
    public func tripModel(_ model: TripModel, didUpdateDropoffLocation location: TerminalLocation?) {}
    public func tripModel(_ model: TripModel, didUpdatePickupETA eta: Timestamp?) {}
    public func tripModel(_ model: TripModel, didUpdateDropoffETA eta: Timestamp?) {}
    public func tripModel(_ model: TripModel, didUpdateRemainingWaypoints waypoints: [TripWaypoint]?) {}
    public func tripModel(_ model: TripModel, didUpdateIntermediateDestinations destinations: [TerminalLocation]?) {}
    public func tripModel(_ model: TripModel, didUpdateActiveRouteTraffic traffic: ConsumableTrafficPolyline?) {}
    public func tripModel(_ model: TripModel, didFailUpdateWithError error: FleetEngineError) {}
    public func tripModel(_ model: TripModel, didEndFollowingWith state: TripModelState) {}

    /// Calls the method for `event`.
    func deliver(_ event: TripEvent, from model: TripModel) {
        switch event {
        case .tripUpdated(let trip, let fields): tripModel(model, didUpdate: trip, updatedPropertyFields: fields)
        case .tripStatus(let status): tripModel(model, didUpdateTripStatus: status)
        case .remainingDistance(let meters): tripModel(model, didUpdateActiveRouteRemainingDistance: meters)
        case .activeRoute(let route): tripModel(model, didUpdateActiveRoute: route)
        case .vehicleLocation(let location): tripModel(model, didUpdateVehicleLocation: location)
        case .pickupLocation(let location): tripModel(model, didUpdatePickupLocation: location)
        case .dropoffLocation(let location): tripModel(model, didUpdateDropoffLocation: location)
        case .pickupETA(let eta): tripModel(model, didUpdatePickupETA: eta)
        case .dropoffETA(let eta): tripModel(model, didUpdateDropoffETA: eta)
        case .remainingWaypoints(let waypoints): tripModel(model, didUpdateRemainingWaypoints: waypoints)
        case .intermediateDestinations(let destinations):
            tripModel(model, didUpdateIntermediateDestinations: destinations)
        case .activeRouteTraffic(let traffic): tripModel(model, didUpdateActiveRouteTraffic: traffic)
        case .updateFailed(let error): tripModel(model, didFailUpdateWithError: error)
        }
    }
}
