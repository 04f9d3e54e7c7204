package import ArgumentParser
import FleetEngineClient

/// The `fleettrips` command: Fleet Engine trips from the command line.
///
/// Each subcommand parses its arguments and hands the work to a library type, so the same work
/// runs in tests on in-memory input (see ``DecodeCommand/run(input:output:)``).
package struct FleetTrips: AsyncParsableCommand {
    /// The command's name, help text, version and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: "fleettrips",
        abstract: """
            Work with Google Maps Fleet Engine trips: follow trips as they change (follow, demo), call TripService \
            (get, search, create, update, delete, report-billable), \
            convert trip messages between binary and JSON, explain the gRPC statuses calls end with, decode captured traffic, \
            and run a local Fleet Engine (the emulator).
            """,
        version: version,
        subcommands: [
            GetCommand.self, SearchCommand.self, CreateCommand.self, UpdateCommand.self, DeleteCommand.self,
            ReportBillableCommand.self, DecodeCommand.self, EncodeCommand.self, TypesCommand.self, StatusCommand.self,
            ServeCommand.self, TokenCommand.self, CaptureCommand.self, FollowCommand.self, DemoCommand.self,
        ]
    )

    /// What `fleettrips --version` prints: the package's version, the one the client sends in
    /// `user-agent` and each request's header (`FleetEngineClient.version`).
    package static let version = FleetEngineClient.version

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    package init() {}
}
