import ArgumentParser
import FleetEngineClient
import FleetEngineCodec

/// `fleettrips search`: a provider's trips (SearchTrips, every page), one JSON object per line.
struct SearchCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Print a provider's trips (SearchTrips, page after page) as proto3 JSON, one trip per line.",
        discussion: TripServiceHelp.failureContract + "\n\n" + TripServiceHelp.commonDiscussion
    )

    /// The provider id.
    @Option(help: ArgumentHelp("The provider (Google Cloud project id) whose trips to list.", valueName: "id"))
    var provider: String

    /// Only this vehicle's trips.
    @Option(help: ArgumentHelp("Only trips assigned to this vehicle.", valueName: "id"))
    var vehicleID: String?

    /// Only active trips.
    @Flag(help: "Only active trips (not COMPLETE or CANCELED).")
    var activeOnly = false

    /// Trips per call.
    @Option(help: ArgumentHelp("Trips per SearchTrips call (the server's default when left out).", valueName: "n"))
    var pageSize: Int?

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a page size that is not a positive `int32`.
    func validate() throws {
        if let pageSize, !(1...Int(Int32.max)).contains(pageSize) {
            throw ValidationError("--page-size must be a number from 1 to \(Int32.max)")
        }
    }

    /// The request the arguments describe.
    var request: SearchTripsRequest {
        var request = SearchTripsRequest()
        request.parent = "providers/\(provider)"
        request.vehicleID = vehicleID ?? ""
        request.activeTripsOnly = activeOnly
        request.pageSize = Int32(clamping: pageSize ?? 0)
        return request
    }

    /// Writes each trip to `output` as it arrives; a failure, even after some trips, goes to
    /// `errorOutput` (``TripServiceSession/run(errorOutput:_:)``).
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        let request = request
        try await connection.session().run(errorOutput: &errorOutput) { client, notices in
            for try await trip in client.searchTrips(request) {
                try trip.writeJSONLine(
                    to: &output, notices: &notices, context: "the trip \(trip.name) SearchTrips returned")
            }
        }
    }
}
