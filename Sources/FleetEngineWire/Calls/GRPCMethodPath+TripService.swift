extension GRPCMethodPath {
    /// The Fleet Engine trip service, as `Protos/google/maps/fleetengine/v1/trip_api.proto`
    /// declares it: `service TripService` in `package maps.fleetengine.v1`.
    public static let tripService = "maps.fleetengine.v1.TripService"

    /// `CreateTrip(CreateTripRequest) returns (Trip)`.
    public static let createTrip = GRPCMethodPath(service: tripService, method: "CreateTrip")
    /// `GetTrip(GetTripRequest) returns (Trip)`.
    public static let getTrip = GRPCMethodPath(service: tripService, method: "GetTrip")
    /// `DeleteTrip(DeleteTripRequest) returns (google.protobuf.Empty)`.
    public static let deleteTrip = GRPCMethodPath(service: tripService, method: "DeleteTrip")
    /// `ReportBillableTrip(ReportBillableTripRequest) returns (google.protobuf.Empty)`.
    public static let reportBillableTrip = GRPCMethodPath(service: tripService, method: "ReportBillableTrip")
    /// `SearchTrips(SearchTripsRequest) returns (SearchTripsResponse)`.
    public static let searchTrips = GRPCMethodPath(service: tripService, method: "SearchTrips")
    /// `UpdateTrip(UpdateTripRequest) returns (Trip)`.
    public static let updateTrip = GRPCMethodPath(service: tripService, method: "UpdateTrip")

    /// The six TripService methods, in the order the proto declares them.
    public static let tripServiceMethods: [GRPCMethodPath] = [
        createTrip, getTrip, deleteTrip, reportBillableTrip, searchTrips, updateTrip,
    ]
}
