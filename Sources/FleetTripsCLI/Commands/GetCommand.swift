import ArgumentParser
import FleetEngineClient
import FleetEngineCodec

/// `fleettrips get`: one trip (GetTrip), as proto3 JSON on one line.
struct GetCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a trip (GetTrip) as proto3 JSON on one line.",
        discussion: TripServiceHelp.failureContract + "\n\n" + TripServiceHelp.commonDiscussion
    )

    /// The trip's resource name.
    @Argument(help: ArgumentHelp("The trip's name: providers/{provider_id}/trips/{trip_id}.", valueName: "name"))
    var name: String

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Gets the trip and writes it to `output`; a failure goes to `errorOutput`
    /// (``TripServiceSession/run(errorOutput:_:)``).
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        try await connection.session().run(errorOutput: &errorOutput) { client, notices in
            let trip = try await client.getTrip(named: name)
            try trip.writeJSONLine(to: &output, notices: &notices, context: "the trip \(trip.name) GetTrip returned")
        }
    }
}
