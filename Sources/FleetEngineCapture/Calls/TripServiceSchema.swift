public import FleetEngineCodec
public import FleetEngineWire

/// The message types of each TripService method, and how to tell the method from a message when
/// the capture lost the header block that named it.
public enum TripServiceSchema {
    /// The request and response types of a method, by its `:path`; nil for any other method
    /// (VehicleService, unknown services), whose messages are printed without a schema.
    public static func messageTypes(
        forPath path: String
    ) -> (request: any ProtobufMessage.Type, response: any ProtobufMessage.Type)? {
        switch path {
        case GRPCMethodPath.createTrip.path: (CreateTripRequest.self, Trip.self)
        case GRPCMethodPath.getTrip.path: (GetTripRequest.self, Trip.self)
        case GRPCMethodPath.deleteTrip.path: (DeleteTripRequest.self, Empty.self)
        case GRPCMethodPath.reportBillableTrip.path: (ReportBillableTripRequest.self, Empty.self)
        case GRPCMethodPath.searchTrips.path: (SearchTripsRequest.self, SearchTripsResponse.self)
        case GRPCMethodPath.updateTrip.path: (UpdateTripRequest.self, Trip.self)
        default: nil
        }
    }

    /// The method a request message most likely belongs to, from its fields alone.
    ///
    /// The six request types share field numbers, so the rules look at the values too: field 3 is
    /// a trip name (`providers/p/trips/t`) in GetTrip and UpdateTrip but a provider
    /// (`providers/p`) in CreateTrip and SearchTrips; field 4 is a `Trip` in CreateTrip and
    /// UpdateTrip but a vehicle id string in SearchTrips; field 5 is a string in CreateTrip, a
    /// `FieldMask` in UpdateTrip and a bool in SearchTrips; DeleteTrip and ReportBillableTrip
    /// carry the name in field 2.
    public static func inferMethod(fromRequest payload: ArraySlice<UInt8>) -> GRPCMethodPath? {
        guard let fields = WireField.fields(of: payload) else { return nil }
        var numbers: Set<UInt32> = []
        var varints: Set<UInt32> = []
        var field3: ArraySlice<UInt8>?
        for field in fields {
            numbers.insert(field.number)
            switch field.value {
            case .varint: varints.insert(field.number)
            case .lengthDelimited(let bytes) where field.number == 3: field3 = bytes
            default: break
            }
        }
        if numbers.contains(2) {
            return numbers.isSubset(of: [1, 2]) ? .deleteTrip : .reportBillableTrip
        }
        guard let field3 else { return numbers.isEmpty ? nil : .getTrip }
        let namesTrip = field3.firstRange(of: Array("/trips/".utf8)) != nil
        if namesTrip {
            return numbers.contains(4) || numbers.contains(5) ? .updateTrip : .getTrip
        }
        if varints.contains(5) || numbers.contains(6) || numbers.contains(7) || numbers.contains(8) {
            return .searchTrips
        }
        return numbers.contains(4) && !varints.contains(4) && numbers.contains(5) ? .createTrip : .searchTrips
    }

    /// The response type a message most likely is, from its fields alone: `Empty` when it has
    /// none, a `SearchTripsResponse` when its field 1 is a message (a trip), a `Trip` when its
    /// field 1 is a trip name.
    public static func inferResponseType(_ payload: ArraySlice<UInt8>) -> (any ProtobufMessage.Type)? {
        if payload.isEmpty { return Empty.self }
        guard let fields = WireField.fields(of: payload) else { return nil }
        let first = fields.first { $0.number == 1 }
        if case .lengthDelimited(let bytes) = first?.value, bytes.starts(with: Array("providers/".utf8)) {
            return Trip.self
        }
        if fields.allSatisfy({ $0.number == 1 || $0.number == 2 }) { return SearchTripsResponse.self }
        return Trip.self
    }
}
