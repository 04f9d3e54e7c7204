import FleetEngineCodec
import FleetEngineStatus

/// UpdateTrip's field mask: which fields of the request's trip replace the stored trip's.
///
/// Paths are the proto field names of `Trip` (`trip_status`), as the binary form of
/// `google.protobuf.FieldMask` carries them; the JSON form's lowerCamelCase (`tripStatus`) is taken
/// too. Only fields a caller may write are accepted; an empty mask, an unknown path or an
/// output-only field is INVALID_ARGUMENT with a `BadRequest` violation of `update_mask`.
struct TripFieldMask: Sendable {
    /// The fields a caller may update, by proto name.
    static let writable: Set<String> = [
        "vehicle_id", "trip_status", "pickup_point", "actual_pickup_point", "actual_pickup_arrival_point",
        "intermediate_destinations", "intermediate_destination_index", "actual_intermediate_destination_arrival_points",
        "actual_intermediate_destinations", "dropoff_point", "actual_dropoff_point", "vehicle_waypoints",
        "number_of_passengers", "attributes",
    ]

    /// Fields of `Trip` the server computes: named in a mask, they are refused, not ignored.
    static let outputOnly: Set<String> = [
        "name", "trip_type", "pickup_time", "dropoff_time", "remaining_waypoints", "route", "current_route_segment",
        "current_route_segment_version", "current_route_segment_traffic", "current_route_segment_traffic_version",
        "current_route_segment_end_point", "remaining_distance_meters", "eta_to_first_waypoint",
        "remaining_time_to_first_waypoint", "remaining_waypoints_version", "remaining_waypoints_route_version",
        "intermediate_destinations_version", "last_location", "last_location_snappable", "view",
    ]

    let paths: [String]

    init(_ mask: FieldMask?) throws(FleetEngineError) {
        guard let mask, !mask.paths.isEmpty else {
            throw EmulatorErrors.invalidArgument(field: "update_mask", "update_mask must name at least one field")
        }
        var paths: [String] = []
        for path in mask.paths {
            let name = Self.snakeCase(path)
            if Self.outputOnly.contains(name) {
                throw EmulatorErrors.invalidArgument(
                    field: "update_mask", "\"\(path)\" is an output-only field of Trip and cannot be updated")
            }
            guard Self.writable.contains(name) else {
                throw EmulatorErrors.invalidArgument(field: "update_mask", "\"\(path)\" is not a field of Trip")
            }
            paths.append(name)
        }
        self.paths = paths
    }

    /// Copies the masked fields from `source` into `trip`.
    ///
    /// - Throws: INVALID_ARGUMENT for a `trip_status` the schema does not name, or UNKNOWN_TRIP_STATUS;
    ///   FAILED_PRECONDITION for a trip that has already ended, or for a change of
    ///   `intermediate_destination_index`, or of the status to `ENROUTE_TO_INTERMEDIATE_DESTINATION`
    ///   with a version given, whose `intermediate_destinations_version` is not the trip's current
    ///   one (Fleet Engine's guard against racing a change of the destinations);
    ///   INVALID_ARGUMENT for an index outside the destinations.
    func apply(_ source: Trip, to trip: inout Trip, now: Timestamp) throws(FleetEngineError) {
        if !RemainingWaypoints.isActive(trip.tripStatus) {
            throw EmulatorErrors.withReason(
                .failedPrecondition, reason: "TRIP_ENDED",
                "trip \(trip.name) is \(trip.tripStatus) and can no longer be updated", metadata: ["trip": trip.name])
        }
        for path in paths {
            switch path {
            case "vehicle_id": trip.vehicleID = source.vehicleID
            case "trip_status":
                // TripStatus is an open enum: a number the schema does not name (or its default,
                // UNKNOWN_TRIP_STATUS) would be stored and counted as an active status.
                guard Self.settableStatuses.contains(source.tripStatus) else {
                    throw EmulatorErrors.invalidArgument(
                        field: "trip.trip_status",
                        "trip_status \(source.tripStatus.rawValue) is not a status a trip can be set to: NEW, "
                            + "ENROUTE_TO_PICKUP, ARRIVED_AT_PICKUP, ARRIVED_AT_INTERMEDIATE_DESTINATION, "
                            + "ENROUTE_TO_INTERMEDIATE_DESTINATION, ENROUTE_TO_DROPOFF, COMPLETE or CANCELED")
                }
                // UpdateTripRequest.trip: the version, when given with this status, "must be
                // consistent with Fleet Engine's version. If it isn't, the request fails."
                if source.tripStatus == .enrouteToIntermediateDestination,
                    source.intermediateDestinationsVersion != nil
                {
                    try Self.checkDestinationsVersion(of: source, against: trip)
                }
                trip.tripStatus = source.tripStatus
            case "pickup_point": trip.pickupPoint = source.pickupPoint
            case "actual_pickup_point": trip.actualPickupPoint = source.actualPickupPoint
            case "actual_pickup_arrival_point": trip.actualPickupArrivalPoint = source.actualPickupArrivalPoint
            case "intermediate_destinations": trip.intermediateDestinations = source.intermediateDestinations
            case "intermediate_destination_index":
                try Self.checkDestinationsVersion(of: source, against: trip)
                trip.intermediateDestinationIndex = source.intermediateDestinationIndex
            case "actual_intermediate_destination_arrival_points":
                trip.actualIntermediateDestinationArrivalPoints = source.actualIntermediateDestinationArrivalPoints
            case "actual_intermediate_destinations":
                trip.actualIntermediateDestinations = source.actualIntermediateDestinations
            case "dropoff_point": trip.dropoffPoint = source.dropoffPoint
            case "actual_dropoff_point": trip.actualDropoffPoint = source.actualDropoffPoint
            case "vehicle_waypoints": trip.vehicleWaypoints = Self.stops(of: source.vehicleWaypoints)
            case "number_of_passengers": trip.numberOfPassengers = source.numberOfPassengers
            case "attributes": trip.attributes = source.attributes
            default: break
            }
        }
        let index = Int(trip.intermediateDestinationIndex)
        if index < 0 || (index > 0 && index >= trip.intermediateDestinations.count) {
            throw EmulatorErrors.invalidArgument(
                field: "trip.intermediate_destination_index",
                "intermediate_destination_index \(index) is outside the \(trip.intermediateDestinations.count) destinations"
            )
        }
        if paths.contains("trip_status") {
            if trip.tripStatus == .enrouteToDropoff || trip.tripStatus == .complete, trip.pickupTime == nil {
                trip.pickupTime = now
            }
            if trip.tripStatus == .complete, trip.dropoffTime == nil { trip.dropoffTime = now }
        }
        // Only a change of what the waypoints come from derives them again: a moving trip's waypoints
        // carry paths, distances and ETAs that an update of, say, the passenger count must not wipe.
        if !Self.waypointSources.isDisjoint(with: paths) {
            trip.remainingWaypoints = RemainingWaypoints.derive(for: trip)
        }
    }

    /// Fleet Engine's guard against racing a change of the destinations: the request's
    /// `intermediate_destinations_version` must be the stored trip's.
    private static func checkDestinationsVersion(of source: Trip, against trip: Trip) throws(FleetEngineError) {
        guard source.intermediateDestinationsVersion == trip.intermediateDestinationsVersion else {
            throw EmulatorErrors.withReason(
                .failedPrecondition, reason: "STALE_INTERMEDIATE_DESTINATIONS_VERSION",
                "intermediate_destinations_version does not match the trip's current version",
                metadata: ["trip": trip.name])
        }
    }

    /// Of each of a request's `vehicle_waypoints`, what Fleet Engine takes: "The `trip_id`,
    /// `waypoint_type` and `location` fields are used, and all other TripWaypoint fields in
    /// `vehicle_waypoints` are ignored" (`CreateTripRequest.trip`, `UpdateTripRequest.trip`).
    static func stops(of waypoints: [TripWaypoint]) -> [TripWaypoint] {
        waypoints.map { given in
            var stop = TripWaypoint()
            stop.tripID = given.tripID
            stop.waypointType = given.waypointType
            stop.location = given.location
            return stop
        }
    }

    /// The statuses the schema names, other than UNKNOWN_TRIP_STATUS.
    static let settableStatuses: [TripStatus] = [
        .new, .enrouteToPickup, .arrivedAtPickup, .arrivedAtIntermediateDestination, .enrouteToIntermediateDestination,
        .enrouteToDropoff, .complete, .canceled,
    ]

    /// The fields ``RemainingWaypoints/derive(for:)`` reads.
    static let waypointSources: Set<String> = [
        "trip_status", "pickup_point", "intermediate_destinations", "intermediate_destination_index", "dropoff_point",
    ]

    /// `tripStatus` → `trip_status`; a snake_case name stays as it is.
    static func snakeCase(_ path: String) -> String {
        var result = ""
        for character in path {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
