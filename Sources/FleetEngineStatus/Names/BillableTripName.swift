/// The name a ReportBillableTrip request reports, `providers/{provider}/billableTrips/{billable_trip}`,
/// checked as a ``TripName`` is.
///
/// Fleet Engine's reference gives the form and that the provider is the Google Cloud project id; the
/// provider id and the billable trip id are held to ``TripName``'s rules for a provider id and a trip
/// id. Any other form, `providers/{provider}/trips/{trip_id}` among them, is INVALID_ARGUMENT. The
/// emulator records a report for a trip it holds, so there the billable trip id is that trip's id
/// (``tripName``).
public struct BillableTripName: Hashable, Sendable, CustomStringConvertible {
    /// The provider: the Google Cloud project id.
    public var providerID: String
    /// The billable trip id; for the emulator, the id of the trip reported.
    public var billableTripID: String

    /// A name from its parts, checked.
    ///
    /// - Throws: INVALID_ARGUMENT with a `BadRequest` violation of `field` when a part is not valid.
    public init(providerID: String, billableTripID: String, field: String = "name") throws(FleetEngineError) {
        try TripName.checkProviderID(providerID, field: field)
        try TripName.checkTripID(billableTripID, field: field, kind: "billable trip id")
        self.providerID = providerID
        self.billableTripID = billableTripID
    }

    /// The name under which trip `tripName` is reported: its trip id as the billable trip id (checked
    /// already, by the same rules).
    public init(reporting tripName: TripName) {
        self.providerID = tripName.providerID
        self.billableTripID = tripName.tripID
    }

    /// Parses `providers/{provider}/billableTrips/{billable_trip}`.
    ///
    /// - Throws: INVALID_ARGUMENT with a `BadRequest` violation of `field` (the request field that
    ///   carried the name) saying what is wrong; for another form, the form expected.
    public init(parsing name: String, field: String = "name") throws(FleetEngineError) {
        guard let (providerID, billableTripID) = TripName.parts(of: name, collection: "billableTrips") else {
            throw FleetEngineError.invalidArgument(
                field: field,
                "\"\(name)\" is not a billable trip name of the form providers/{provider}/billableTrips/{billable_trip}"
            )
        }
        try self.init(providerID: providerID, billableTripID: billableTripID, field: field)
    }

    /// `providers/{provider}/billableTrips/{billable_trip}`.
    public var description: String { "providers/\(providerID)/billableTrips/\(billableTripID)" }

    /// The trip the billable trip id names, `providers/{provider}/trips/{billable_trip}`: the trip
    /// the emulator records the report for.
    public var tripName: TripName { TripName(checkedProviderID: providerID, tripID: billableTripID) }
}
