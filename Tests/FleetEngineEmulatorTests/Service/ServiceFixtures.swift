import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineEmulator

/// A `TripServiceCore` over an in-memory store on a clock that only moves when a test moves it.
struct ServiceHarness {
    /// 2023-11-14T22:13:20Z, a whole second, so every version is a round number.
    static let startSeconds: Int64 = 1_700_000_000

    let clock: ManualTimeSource
    let store: TripStore
    let service: TripServiceCore

    init() {
        clock = ManualTimeSource(start: Timestamp(seconds: Self.startSeconds, nanos: 0))
        store = TripStore(time: clock)
        service = TripServiceCore(store: store)
    }

    /// The time `seconds` (and `nanos`) after the harness's start.
    static func time(_ seconds: Int64, nanos: Int32 = 0) -> Timestamp {
        Timestamp(seconds: startSeconds + seconds, nanos: nanos)
    }

    /// Creates `providers/{provider}/trips/{tripID}` from ``ServiceFixtures/tripToCreate(vehicleID:)``.
    @discardableResult
    func createTrip(_ tripID: String, provider: String = ServiceFixtures.provider, vehicleID: String = "")
        throws(FleetEngineError) -> Trip
    {
        try service.createTrip(
            ServiceFixtures.createRequest(
                provider: provider, tripID: tripID, trip: ServiceFixtures.tripToCreate(vehicleID: vehicleID)))
    }

    /// Updates the fields `paths` names from `trip`.
    @discardableResult
    func update(_ name: String, _ paths: [String], _ trip: Trip) throws(FleetEngineError) -> Trip {
        var request = UpdateTripRequest()
        request.name = name
        request.trip = trip
        var mask = FieldMask()
        mask.paths = paths
        request.updateMask = mask
        return try service.updateTrip(request)
    }

    /// The trip as GetTrip returns it with no versions held.
    func get(_ name: String) throws(FleetEngineError) -> Trip {
        var request = GetTripRequest()
        request.name = name
        return try service.getTrip(request)
    }
}

/// Requests, trips and expected errors shared by the service tests.
enum ServiceFixtures {
    static let provider = "test-project"

    static func name(_ tripID: String, provider: String = provider) -> String {
        "providers/\(provider)/trips/\(tripID)"
    }

    /// The name ReportBillableTrip takes for trip `tripID`: `providers/{provider}/billableTrips/{tripID}`.
    static func billableName(_ tripID: String, provider: String = provider) -> String {
        "providers/\(provider)/billableTrips/\(tripID)"
    }

    static func point(_ latitude: Double, _ longitude: Double) -> LatLng {
        var point = LatLng()
        point.latitude = latitude
        point.longitude = longitude
        return point
    }

    static func terminal(_ latitude: Double, _ longitude: Double) -> TerminalLocation {
        var location = TerminalLocation()
        location.point = point(latitude, longitude)
        return location
    }

    static let pickup = terminal(37.4220, -122.0841)
    static let dropoff = terminal(37.4275, -122.1697)
    static let stops = [terminal(37.4300, -122.1000), terminal(37.4310, -122.1200)]

    /// An exclusive trip for two passengers with a pickup and a dropoff: what CreateTrip needs, and a
    /// little more.
    static func tripToCreate(vehicleID: String = "") -> Trip {
        var trip = Trip()
        trip.tripType = .exclusive
        trip.pickupPoint = pickup
        trip.dropoffPoint = dropoff
        trip.numberOfPassengers = 2
        trip.vehicleID = vehicleID
        return trip
    }

    static func createRequest(provider: String = provider, tripID: String, trip: Trip?) -> CreateTripRequest {
        var request = CreateTripRequest()
        request.parent = "providers/\(provider)"
        request.tripID = tripID
        request.trip = trip
        return request
    }

    /// A waypoint as the service derives it for an API-made trip: location, trip id and type only.
    static func waypoint(_ location: TerminalLocation, tripID: String, _ type: WaypointType) -> TripWaypoint {
        var waypoint = TripWaypoint()
        waypoint.location = location
        waypoint.tripID = tripID
        waypoint.waypointType = type
        return waypoint
    }

    /// The `BadRequest` detail of an INVALID_ARGUMENT naming one field.
    static func badRequestField(_ error: FleetEngineError) -> String? {
        guard error.details.count == 1, case .badRequest(let badRequest) = error.details[0],
            badRequest.fieldViolations.count == 1
        else { return nil }
        return badRequest.fieldViolations[0].field
    }

    /// The `ErrorInfo` reason of an error whose only detail is one.
    static func errorInfoReason(_ error: FleetEngineError) -> String? {
        guard let first = error.details.first, case .errorInfo(let info) = first else { return nil }
        return info.reason
    }

    static func errorInfo(reason: String, metadata: [String: String]) -> StatusDetail {
        var info = ErrorInfo()
        info.reason = reason
        info.domain = "fleetengine.googleapis.com"
        info.metadata = metadata
        return .errorInfo(info)
    }
}

/// The `FleetEngineError` `body` throws, or nil when it returns (an error of another type is an issue).
func fleetEngineError<T>(
    _ body: () throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) -> FleetEngineError? {
    do {
        _ = try body()
        return nil
    } catch let error as FleetEngineError {
        return error
    } catch {
        Issue.record("not a FleetEngineError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
