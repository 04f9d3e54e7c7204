public import FleetEngineCodec
public import FleetEngineStatus
import FleetEngineWire

extension FleetEngineClient {
    /// `GetTrip`: the trip named `providers/{provider_id}/trips/{trip_id}`.
    ///
    /// Send the version fields (`current_route_segment_version` and the others) to have the server
    /// leave out the parts that have not changed since.
    ///
    /// - Throws: INVALID_ARGUMENT without any network traffic when the name is malformed; otherwise
    ///   whatever the call failed with.
    public func getTrip(_ request: GetTripRequest, options: CallOptions = CallOptions()) async throws(FleetEngineError)
        -> Trip
    {
        try await tripCall(request, name: request.name, method: .getTrip, isRead: true, options: options)
    }

    /// `GetTrip`, cancelled by `cancellation` as well as by its task (``CallCancellation``): for
    /// callers that make many calls in one long-lived task, as the trip service's refreshes do.
    package func getTrip(
        _ request: GetTripRequest, options: CallOptions = CallOptions(), cancellation: CallCancellation
    ) async throws(FleetEngineError) -> Trip {
        try await tripCall(
            request, name: request.name, method: .getTrip, isRead: true, options: options, cancellation: cancellation)
    }

    /// `GetTrip` with the full view, by name.
    public func getTrip(named name: String, options: CallOptions = CallOptions()) async throws(FleetEngineError) -> Trip
    {
        var request = GetTripRequest()
        request.name = name
        return try await getTrip(request, options: options)
    }

    /// `CreateTrip`: creates `request.trip` as `{parent}/trips/{trip_id}`; ALREADY_EXISTS when it
    /// exists.
    public func createTrip(_ request: CreateTripRequest, options: CallOptions = CallOptions())
        async throws(FleetEngineError)
        -> Trip
    {
        let providerID = try TripName.providerID(parsingParent: request.parent, field: "parent")
        let name = try TripName(providerID: providerID, tripID: request.tripID, field: "trip_id")
        return try await unary(
            request.withHeader(populatedHeader(request.header)),
            target: CallTarget(method: .createTrip, providerID: providerID, tripID: name.tripID, isRead: false),
            options: options)
    }

    /// `UpdateTrip`: writes the fields of `request.trip` that `request.update_mask` names.
    public func updateTrip(_ request: UpdateTripRequest, options: CallOptions = CallOptions())
        async throws(FleetEngineError)
        -> Trip
    {
        try await tripCall(request, name: request.name, method: .updateTrip, isRead: false, options: options)
    }

    /// `DeleteTrip`: deletes a trip that is not active.
    public func deleteTrip(_ request: DeleteTripRequest, options: CallOptions = CallOptions())
        async throws(FleetEngineError)
    {
        let _: Empty = try await tripCall(
            request, name: request.name, method: .deleteTrip, isRead: false, options: options)
    }

    /// `DeleteTrip` by name.
    public func deleteTrip(named name: String, options: CallOptions = CallOptions()) async throws(FleetEngineError) {
        var request = DeleteTripRequest()
        request.name = name
        try await deleteTrip(request, options: options)
    }

    /// `ReportBillableTrip`: reports a trip for billing.
    ///
    /// `request.name` is `providers/{provider}/billableTrips/{billable_trip}`, as Fleet Engine's
    /// reference requires (`BillableTripName`; `BillableTripName(reporting:)` makes it from a
    /// trip's name).
    ///
    /// - Throws: INVALID_ARGUMENT without any network traffic when the name is malformed or of
    ///   another form (a trip's own name among them); otherwise whatever the call failed with.
    public func reportBillableTrip(
        _ request: ReportBillableTripRequest, options: CallOptions = CallOptions()
    ) async throws(FleetEngineError) {
        let name = try BillableTripName(parsing: request.name, field: "name")
        let _: Empty = try await unary(
            request,
            target: CallTarget(
                method: .reportBillableTrip, providerID: name.providerID, tripID: name.billableTripID,
                isRead: false),
            options: options)
    }

    /// One page of `SearchTrips`.
    public func searchTripsPage(
        _ request: SearchTripsRequest, options: CallOptions = CallOptions()
    ) async throws(FleetEngineError) -> SearchTripsResponse {
        let providerID = try TripName.providerID(parsingParent: request.parent, field: "parent")
        return try await unary(
            request.withHeader(populatedHeader(request.header)),
            target: CallTarget(method: .searchTrips, providerID: providerID, tripID: nil, isRead: true),
            options: options)
    }

    /// `SearchTrips` as a sequence of trips that fetches the next page (with `next_page_token`)
    /// when the one before is used up. Each page is one call with `options`. A server that hands
    /// out a page token a second time would make the search go round for ever: the sequence ends
    /// with INTERNAL after that page's trips.
    public func searchTrips(_ request: SearchTripsRequest, options: CallOptions = CallOptions()) -> TripSearch {
        TripSearch(client: self, request: request, options: options)
    }

    /// A call about one named trip: the name checked locally (INVALID_ARGUMENT with a BadRequest
    /// before any traffic), the request header filled in.
    private func tripCall<Request: HeaderCarryingRequest, Response: ProtobufMessage>(
        _ request: Request, name: String, method: GRPCMethodPath, isRead: Bool, options: CallOptions,
        cancellation: CallCancellation? = nil
    ) async throws(FleetEngineError) -> Response {
        let tripName = try TripName(parsing: name, field: "name")
        return try await unary(
            request.withHeader(populatedHeader(request.header)),
            target: CallTarget(
                method: method, providerID: tripName.providerID, tripID: tripName.tripID, isRead: isRead),
            options: options, cancellation: cancellation)
    }

    /// The request header with this client's defaults where the caller left fields empty.
    func populatedHeader(_ header: RequestHeader?) -> RequestHeader {
        guard let header else { return defaultRequestHeader }
        return Self.populated(header, defaults: configuration.requestHeader)
    }

    /// `header` with the fields it left empty taken from `defaults`, and the operating system.
    static func populated(
        _ header: RequestHeader, defaults: ClientConfiguration.RequestHeaderDefaults
    ) -> RequestHeader {
        var header = header
        if header.languageCode.isEmpty { header.languageCode = defaults.languageCode }
        if header.regionCode.isEmpty { header.regionCode = defaults.regionCode }
        if header.sdkVersion.isEmpty { header.sdkVersion = defaults.sdkVersion }
        if header.osVersion.isEmpty { header.osVersion = Self.operatingSystem }
        return header
    }

    #if os(Linux)
        static let operatingSystem = "Linux"
    #elseif os(macOS)
        static let operatingSystem = "macOS"
    #else
        static let operatingSystem = "unknown"
    #endif
}

/// The trips of a `SearchTrips` request, page after page.
///
/// Iterating makes the calls; a failed call ends the iteration by throwing its
/// `FleetEngineError`. A server that sends the same page token twice in a row ends the search
/// with INTERNAL rather than looping.
public struct TripSearch: AsyncSequence, Sendable {
    public typealias Element = Trip
    public typealias Failure = FleetEngineError

    let client: FleetEngineClient
    let request: SearchTripsRequest
    let options: CallOptions

    /// An iterator that starts at the request's page token.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, request: request, options: options)
    }

    /// Fetches pages as trips are taken.
    public struct Iterator: AsyncIteratorProtocol {
        let client: FleetEngineClient
        var request: SearchTripsRequest
        let options: CallOptions
        var buffer: [Trip] = []
        var index = 0
        var finished = false
        /// The page tokens sent so far: a server that hands one out again would page forever.
        var sentPageTokens: Set<String> = []
        /// An error that ends the search once the trips before it have been handed out.
        var pendingFailure: FleetEngineError?

        init(client: FleetEngineClient, request: SearchTripsRequest, options: CallOptions) {
            self.client = client
            self.request = request
            self.options = options
        }

        /// The next trip, fetching a page when needed; nil at the end.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(FleetEngineError) -> Trip? {
            while index == buffer.count {
                if let failure = pendingFailure {
                    pendingFailure = nil
                    throw failure
                }
                if finished { return nil }
                let response = try await client.searchTripsPage(request, options: options)
                buffer = response.trips
                index = 0
                sentPageTokens.insert(request.pageToken)
                if response.nextPageToken.isEmpty {
                    finished = true
                } else if sentPageTokens.contains(response.nextPageToken) {
                    // The page's trips are still handed out; the error comes after them.
                    finished = true
                    pendingFailure = FleetEngineError(
                        code: .internalError,
                        message: "the server returned page token \(response.nextPageToken) a second time, "
                            + "so the search would never end",
                        origin: .malformedResponse
                    )
                } else {
                    request.pageToken = response.nextPageToken
                }
            }
            defer { index += 1 }
            return buffer[index]
        }

        /// The next trip.
        public mutating func next() async throws(FleetEngineError) -> Trip? {
            try await next(isolation: nil)
        }
    }
}

/// The TripService requests that carry a `RequestHeader` (all but ReportBillableTrip).
protocol HeaderCarryingRequest: ProtobufMessage {
    var header: RequestHeader? { get set }
}

extension HeaderCarryingRequest {
    /// The request with `header` in place of its own.
    func withHeader(_ header: RequestHeader) -> Self {
        var request = self
        request.header = header
        return request
    }
}

extension GetTripRequest: HeaderCarryingRequest {}
extension CreateTripRequest: HeaderCarryingRequest {}
extension UpdateTripRequest: HeaderCarryingRequest {}
extension DeleteTripRequest: HeaderCarryingRequest {}
extension SearchTripsRequest: HeaderCarryingRequest {}
