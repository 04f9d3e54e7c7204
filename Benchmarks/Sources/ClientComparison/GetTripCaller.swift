/// Something that calls TripService's GetTrip for one trip, again and again, through one client.
///
/// Both clients decode the whole response into their own message type on every call; the name
/// they return is only a check that the server answered with the trip that was asked for.
public protocol GetTripCaller: Sendable {
    /// One GetTrip call; the name of the trip in the response.
    func getTrip() async throws -> String

    /// The task executor the client offers its callers, if it offers one: callers that prefer it
    /// run on the client's I/O thread (FleetEngineClient's `taskExecutor`).
    var preferredTaskExecutor: (any TaskExecutor)? { get }
}
