public import FleetEngineCodec
public import FleetEngineStatus

/// Fleet Engine's TripService, as plain Swift: each method takes the request message and returns the
/// response, or throws the `FleetEngineError` Fleet Engine would send. The gRPC layer
/// (`TripServiceRPC`) adds transport, authorization, rate limits and faults around it.
public struct TripServiceCore: Sendable {
    let store: TripStore

    /// The page size SearchTrips uses when the request leaves it unset, and the most it returns.
    public static let defaultPageSize = 50
    public static let maximumPageSize = 500

    init(store: TripStore) {
        self.store = store
    }

    /// CreateTrip: a new trip under `parent` with `trip_id`, status NEW.
    ///
    /// Fleet Engine's rules: `trip_type` and `pickup_point` are required; `number_of_passengers`,
    /// `vehicle_id`, `dropoff_point`, `intermediate_destinations`, `vehicle_waypoints` (each one's
    /// trip id, type and location) and `attributes` are taken; every other field of the trip is
    /// ignored. Trip ids, here and in every name, must be in Unicode Normalization Form C.
    public func createTrip(_ request: CreateTripRequest) throws(FleetEngineError) -> Trip {
        let providerID = try TripName.providerID(parsingParent: request.parent)
        let name = try TripName(providerID: providerID, tripID: request.tripID, field: "trip_id")
            .requiringNormalizationFormC(field: "trip_id")
        guard let given = request.trip else {
            throw EmulatorErrors.invalidArgument(field: "trip", "the request has no trip")
        }
        // TripType is an open enum: an unnamed number must not pass as a type (nor as "not SHARED"
        // to the intermediate destinations rule below).
        guard given.tripType == .shared || given.tripType == .exclusive else {
            throw EmulatorErrors.invalidArgument(field: "trip.trip_type", "trip_type is required (SHARED or EXCLUSIVE)")
        }
        guard given.pickupPoint?.point != nil else {
            throw EmulatorErrors.invalidArgument(field: "trip.pickup_point", "pickup_point with a point is required")
        }
        // CreateTripRequest.trip: "Only EXCLUSIVE trips support intermediate_destinations."
        guard given.tripType != .shared || given.intermediateDestinations.isEmpty else {
            throw EmulatorErrors.invalidArgument(
                field: "trip.intermediate_destinations", "only EXCLUSIVE trips may have intermediate destinations")
        }
        var trip = Trip()
        trip.name = name.description
        trip.tripType = given.tripType
        trip.tripStatus = .new
        trip.pickupPoint = given.pickupPoint
        trip.dropoffPoint = given.dropoffPoint
        trip.intermediateDestinations = given.intermediateDestinations
        trip.numberOfPassengers = given.numberOfPassengers
        trip.vehicleID = given.vehicleID
        trip.vehicleWaypoints = TripFieldMask.stops(of: given.vehicleWaypoints)
        trip.attributes = given.attributes
        trip.remainingWaypoints = RemainingWaypoints.derive(for: trip)
        return try store.create(trip)
    }

    /// GetTrip: the trip in the requested view, without the parts the caller already holds
    /// (``IncrementalFetch``).
    public func getTrip(_ request: GetTripRequest) throws(FleetEngineError) -> Trip {
        let name = try TripName(parsing: request.name).requiringNormalizationFormC()
        let trip = try store.get(name)
        return Self.output(IncrementalFetch.response(for: trip, request: request), isRead: true)
    }

    /// UpdateTrip: the fields the mask names, from the request's trip (`TripFieldMask`).
    public func updateTrip(_ request: UpdateTripRequest) throws(FleetEngineError) -> Trip {
        let name = try TripName(parsing: request.name).requiringNormalizationFormC()
        guard let given = request.trip else {
            throw EmulatorErrors.invalidArgument(field: "trip", "the request has no trip")
        }
        let mask = try TripFieldMask(request.updateMask)
        let now = store.time.now()
        let updated = try store.update(name) { (trip: inout Trip) throws(FleetEngineError) in
            try mask.apply(given, to: &trip, now: now)
        }
        return Self.output(updated)
    }

    /// SearchTrips: the provider's trips, filtered by vehicle, activity and staleness, a page at a time.
    public func searchTrips(_ request: SearchTripsRequest) throws(FleetEngineError) -> SearchTripsResponse {
        let providerID = try TripName.providerID(parsingParent: request.parent)
        guard request.pageSize >= 0 else {
            throw EmulatorErrors.invalidArgument(field: "page_size", "page_size must not be negative")
        }
        let pageSize = request.pageSize == 0 ? Self.defaultPageSize : min(Int(request.pageSize), Self.maximumPageSize)
        let query = SearchPageToken.query(of: request)
        let after = try SearchPageToken.decode(request.pageToken, providerID: providerID, query: query)
        var staleBefore: Timestamp?
        if let staleness = request.minimumStaleness {
            guard staleness.seconds >= 0, staleness.nanos >= 0 else {
                throw EmulatorErrors.invalidArgument(
                    field: "minimum_staleness", "minimum_staleness must not be negative")
            }
            // google.protobuf.Duration's range: about 10,000 years, and nanos under a second.
            guard staleness.seconds <= 315_576_000_000, staleness.nanos < 1_000_000_000 else {
                throw EmulatorErrors.invalidArgument(
                    field: "minimum_staleness", "minimum_staleness is outside google.protobuf.Duration's range")
            }
            // In seconds and nanoseconds: in microseconds, 10,000 years would overflow.
            let now = store.time.now()
            var nanos = Int64(now.nanos) - Int64(staleness.nanos)
            var seconds = now.seconds - staleness.seconds
            if nanos < 0 {
                nanos += 1_000_000_000
                seconds -= 1
            }
            staleBefore = Timestamp(seconds: seconds, nanos: Int32(nanos))
        }
        let matching = store.trips(providerID: providerID) { trip, updated in
            if let after, trip.name <= after { return false }
            if !request.vehicleID.isEmpty, trip.vehicleID != request.vehicleID { return false }
            if request.activeTripsOnly, !RemainingWaypoints.isActive(trip.tripStatus) { return false }
            if let staleBefore, !(updated < staleBefore || updated == staleBefore) { return false }
            return true
        }
        var response = SearchTripsResponse()
        response.trips = matching.prefix(pageSize).map { Self.output($0, isRead: true) }
        if request.vehicleID.isEmpty {
            // SearchTripsRequest.vehicle_id: "If unspecified, the returned trips do not contain
            // current_route_segment, remaining_waypoints, remaining_distance_meters,
            // eta_to_first_waypoint".
            for index in response.trips.indices {
                response.trips[index].currentRouteSegment = ""
                response.trips[index].remainingWaypoints = []
                response.trips[index].remainingDistanceMeters = nil
                response.trips[index].etaToFirstWaypoint = nil
            }
        }
        if matching.count > pageSize, let last = response.trips.last {
            response.nextPageToken = SearchPageToken.encode(after: last.name, query: query)
        }
        return response
    }

    /// DeleteTrip. Refused with FAILED_PRECONDITION while the trip is active and assigned to a
    /// vehicle, as Fleet Engine refuses it.
    public func deleteTrip(_ request: DeleteTripRequest) throws(FleetEngineError) -> Empty {
        let name = try TripName(parsing: request.name).requiringNormalizationFormC()
        try store.delete(name) { (trip: Trip) throws(FleetEngineError) in
            if RemainingWaypoints.isActive(trip.tripStatus), !trip.vehicleID.isEmpty {
                throw EmulatorErrors.withReason(
                    .failedPrecondition, reason: "TRIP_ACTIVE",
                    "trip \(name) is active and assigned to vehicle \(trip.vehicleID); complete or cancel it first",
                    metadata: ["trip": name.description, "vehicleId": trip.vehicleID])
            }
        }
        return Empty()
    }

    /// `trip` as an answer shows it: without the fields the reference marks input only
    /// (`actual_pickup_point`, `actual_pickup_arrival_point`, `actual_intermediate_destinations`,
    /// `actual_intermediate_destination_arrival_points`, `actual_dropoff_point`), which a
    /// provider reports and the store keeps, but which are not included in output (AIP-203); and
    /// for a read (GetTrip, SearchTrips) without `vehicle_waypoints`, which Fleet Engine returns
    /// from CreateTrip and UpdateTrip only ("For privacy reasons, this field is only populated by
    /// the server on UpdateTrip and CreateTrip calls, NOT on GetTrip calls").
    static func output(_ trip: Trip, isRead: Bool = false) -> Trip {
        var trip = trip
        if isRead { trip.vehicleWaypoints = [] }
        trip.actualPickupPoint = nil
        trip.actualPickupArrivalPoint = nil
        trip.actualIntermediateDestinations = []
        trip.actualIntermediateDestinationArrivalPoints = []
        trip.actualDropoffPoint = nil
        return trip
    }

    /// The most `related_ids` a ReportBillableTrip request may carry, as Fleet Engine's reference says.
    public static let maximumRelatedIDs = 50

    /// ReportBillableTrip: recorded for an existing trip. `name` is
    /// `providers/{provider}/billableTrips/{billable_trip}` (`BillableTripName`), as Fleet Engine's
    /// reference requires, and the billable trip id is the id of the trip reported: NOT_FOUND when
    /// the provider has no such trip. `country_code` is required, and at most ``maximumRelatedIDs``
    /// `related_ids` are taken.
    public func reportBillableTrip(_ request: ReportBillableTripRequest) throws(FleetEngineError) -> Empty {
        let name = try BillableTripName(parsing: request.name)
        try TripName.requireNormalizationFormC(name.billableTripID, kind: "billable trip id", field: "name")
        guard !request.countryCode.isEmpty else {
            throw EmulatorErrors.invalidArgument(field: "country_code", "country_code is required")
        }
        // ReportBillableTripRequest.related_ids: "The number of related_ids is limited to 50." Each
        // report is kept (and journaled) for good, so an unbounded list would grow without limit.
        guard request.relatedIDs.count <= Self.maximumRelatedIDs else {
            throw EmulatorErrors.invalidArgument(
                field: "related_ids",
                "related_ids has \(request.relatedIDs.count) ids; at most \(Self.maximumRelatedIDs) are allowed")
        }
        try store.reportBillable(request, name: name.tripName)
        return Empty()
    }
}
