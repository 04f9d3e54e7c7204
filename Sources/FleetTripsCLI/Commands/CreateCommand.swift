import ArgumentParser
import FleetEngineClient
import FleetEngineCodec

/// `fleettrips create`: a new trip (CreateTrip), printed as the server made it.
struct CreateCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a trip (CreateTrip) and print it, as the server made it, as proto3 JSON on one line.",
        discussion: """
            Fleet Engine requires the trip's tripType and pickupPoint, e.g.:

              fleettrips create --provider my-project --trip-id trip-1 --trip \\
                '{"tripType": "EXCLUSIVE",
                  "pickupPoint": {"point": {"latitude": 52.5, "longitude": 13.4}}}'

            \(TripServiceHelp.failureContract)

            \(TripServiceHelp.commonDiscussion)
            """
    )

    /// The provider id.
    @Option(help: ArgumentHelp("The provider (Google Cloud project id) to create the trip under.", valueName: "id"))
    var provider: String

    /// The new trip's id.
    @Option(help: ArgumentHelp("The new trip's id, unique within the provider.", valueName: "id"))
    var tripID: String

    /// The trip, as JSON or `@file`.
    @Option(help: ArgumentHelp("The trip as proto3 JSON, or @path of a file that holds it.", valueName: "json"))
    var trip: String?

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a `--trip` that is not a Trip in proto3 JSON, saying where.
    func validate() throws {
        _ = try makeRequest()
    }

    /// The request the arguments describe.
    func makeRequest() throws(ValidationError) -> CreateTripRequest {
        var request = CreateTripRequest()
        request.parent = "providers/\(provider)"
        request.tripID = tripID
        // Without --trip the server is sent an empty trip, and says which fields it requires.
        request.trip = Trip()
        if let trip {
            request.trip = try JSONMessageArgument.parse(trip, option: "--trip", as: Trip.self)
        }
        return request
    }

    /// Creates the trip and writes it to `output`; a failure goes to `errorOutput`
    /// (``TripServiceSession/run(errorOutput:_:)``).
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        let request = try makeRequest()
        try await connection.session().run(errorOutput: &errorOutput) { client, notices in
            let trip = try await client.createTrip(request)
            try trip.writeJSONLine(to: &output, notices: &notices, context: "the trip \(trip.name) CreateTrip returned")
        }
    }
}
