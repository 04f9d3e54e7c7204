import ArgumentParser
import FleetEngineClient
import FleetEngineCodec

/// `fleettrips update`: writes the masked fields of a trip (UpdateTrip), printed as the server
/// stored it.
struct UpdateCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Update the fields --mask names (UpdateTrip) and print the trip as proto3 JSON on one line.",
        discussion: """
            Only the fields --mask names are written, from --trip; e.g.
              fleettrips update providers/my-project/trips/trip-1 \\
                --trip '{"tripStatus":"ENROUTE_TO_PICKUP"}' --mask trip_status

            \(TripServiceHelp.failureContract)

            \(TripServiceHelp.commonDiscussion)
            """
    )

    /// The trip's resource name.
    @Argument(help: ArgumentHelp("The trip's name: providers/{provider_id}/trips/{trip_id}.", valueName: "name"))
    var name: String

    /// The new values, as JSON or `@file`.
    @Option(
        help: ArgumentHelp("The new values as a proto3 JSON Trip, or @path of a file that holds it.", valueName: "json")
    )
    var trip: String

    /// The fields to write.
    @Option(
        help: ArgumentHelp(
            "The fields to write, separated by commas: trip_status,vehicle_id (or tripStatus,vehicleId).",
            valueName: "paths"))
    var mask: String

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a `--trip` that is not a Trip in proto3 JSON, and a `--mask` that is not a list of
    /// field paths.
    func validate() throws {
        _ = try makeRequest()
    }

    /// The request the arguments describe.
    func makeRequest() throws(ValidationError) -> UpdateTripRequest {
        var request = UpdateTripRequest()
        request.name = name
        request.trip = try JSONMessageArgument.parse(trip, option: "--trip", as: Trip.self)
        request.updateMask = try FieldMask.parsingArgument(mask)
        return request
    }

    /// Updates the trip and writes it to `output`; a failure goes to `errorOutput`
    /// (``TripServiceSession/run(errorOutput:_:)``).
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        let request = try makeRequest()
        try await connection.session().run(errorOutput: &errorOutput) { client, notices in
            let trip = try await client.updateTrip(request)
            try trip.writeJSONLine(to: &output, notices: &notices, context: "the trip \(trip.name) UpdateTrip returned")
        }
    }
}
