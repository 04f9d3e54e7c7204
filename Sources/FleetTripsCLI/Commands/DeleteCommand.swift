import ArgumentParser
import FleetEngineClient
import FleetEngineCodec

/// `fleettrips delete`: deletes a trip (DeleteTrip).
struct DeleteCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a trip that is not active (DeleteTrip); prints the empty response, {}.",
        discussion: TripServiceHelp.failureContract + "\n\n" + TripServiceHelp.commonDiscussion
    )

    /// The trip's resource name.
    @Argument(help: ArgumentHelp("The trip's name: providers/{provider_id}/trips/{trip_id}.", valueName: "name"))
    var name: String

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Deletes the trip and writes `{}` (DeleteTrip's `google.protobuf.Empty`) to `output`; a
    /// failure goes to `errorOutput` (``TripServiceSession/run(errorOutput:_:)``).
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        try await connection.session().run(errorOutput: &errorOutput) { client in
            try await client.deleteTrip(named: name)
            try output.write(try Empty().jsonLine())
        }
    }
}
