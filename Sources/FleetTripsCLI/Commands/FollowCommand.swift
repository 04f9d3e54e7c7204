import ArgumentParser
import FleetEngineClient
import FleetEngineStatus
import FleetTripsInput
import TripTracking

/// `fleettrips follow NAME...`: follows trips and prints every change as it happens.
struct FollowCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow trips and print each change as one JSON object per line, until every trip has ended.",
        discussion: """
            Each line has "trip" (the trip's name) and "event": tripUpdated (with "fields" and the whole trip as \
            "message"), tripStatus, remainingDistance ("remainingDistanceMeters"), activeRoute, vehicleLocation, \
            pickupLocation, dropoffLocation, pickupETA, dropoffETA, remainingWaypoints, intermediateDestinations, \
            activeRouteTraffic, or updateFailed (with "error": "code", "name", "family", "message", ...). A failed \
            refresh does not end following; the command exits 0 once every trip is COMPLETE or CANCELED, and as \
            below when following ends otherwise (the client cannot be made, or the output is read too slowly: \
            RESOURCE_EXHAUSTED, 72). With --web, live pages of the trips are served instead (a list, and a map \
            per trip, followed while a page of theirs is open) until SIGINT or SIGTERM. A trip holding fields the schema does not define, which its "message" cannot \
            show, gets a "note:" line on standard error (again only when they change).

            \(TripServiceHelp.commonDiscussion)
            """
    )

    /// The trips: full names, or trip ids with `--provider`.
    @Argument(help: ArgumentHelp("Trip names (providers/ID/trips/ID), or trip ids with --provider.", valueName: "name"))
    var names: [String]

    /// The provider of bare trip ids.
    @Option(help: ArgumentHelp("The provider (Google Cloud project id) of trips given by id.", valueName: "id"))
    var provider: String?

    /// Seconds between refreshes.
    @Option(help: ArgumentHelp("Seconds between two refreshes of a trip.", valueName: "seconds"))
    var interval = 5.0

    /// The GetTrip calls per minute all the trips share.
    @Option(
        help: ArgumentHelp(
            "The GetTrip calls per minute all the trips may make together (Fleet Engine's default quota for reads is "
                + "9000): when they ask for more, their refreshes are spread within it and every trip's interval "
                + "stretches alike. \"unlimited\" for no limit.",
            valueName: "calls"))
    var maxCallsPerMinute: String = "9000"

    /// Progress events too.
    @Flag(
        help: ArgumentHelp(
            "Also print navigation-style progress events: arrivedAtWaypoint, routeChanged, remainingTimeUpdated, "
                + "remainingDistanceUpdated, delayCategoryChanged, lightingModeChanged, locationUpdated (no speeding "
                + "lines: Fleet Engine sends no speed limits, and follow has none to compare with)."))
    var progress = false

    /// Text for people instead of JSON.
    @Flag(help: "Print a readable line per event instead of JSON.")
    var human = false

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// `--web` and its options.
    @OptionGroup(title: "Web pages") var webOptions: WebOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses no names, a bare id without `--provider`, names of several providers, and an
    /// interval that is not a positive number.
    func validate() throws {
        guard !names.isEmpty else { throw ValidationError("give at least one trip name") }
        guard interval > 0, interval.isFinite, interval <= 86_400 else {
            throw ValidationError("--interval must be a positive number of seconds, at most 86400")
        }
        _ = try providerID()
        _ = try requestBudget()
        if webOptions.web != nil, progress || human {
            throw ValidationError("--web serves pages instead of printing events: leave out --progress and --human")
        }
    }

    /// The budget `--max-calls-per-minute` gives.
    func requestBudget() throws -> RequestBudget {
        if maxCallsPerMinute == "unlimited" { return .unlimited }
        guard let calls = Int(maxCallsPerMinute), calls > 0 else {
            throw ValidationError(
                "--max-calls-per-minute must be a positive whole number of calls, or \"unlimited\" (not "
                    + "\"\(maxCallsPerMinute)\")")
        }
        return RequestBudget(callsPerMinute: calls)
    }

    /// The provider every trip belongs to.
    func providerID() throws -> String {
        var providers = Set<String>()
        for name in names {
            if name.contains("/") {
                guard let parsed = try? TripName(parsing: name) else {
                    throw ValidationError("\(name) is not a trip name (providers/ID/trips/ID)")
                }
                providers.insert(parsed.providerID)
            } else if let provider {
                providers.insert(provider)
            } else {
                throw ValidationError("\(name) is a trip id: give its provider with --provider, or its full name")
            }
        }
        if let provider { providers.insert(provider) }
        guard providers.count == 1, let only = providers.first else {
            throw ValidationError(
                "the trips belong to several providers: \(providers.sorted().joined(separator: ", "))")
        }
        return only
    }

    /// Follows the trips, printing events to `output`; a failure that ends following (the
    /// connection cannot be configured) goes to `errorOutput`.
    ///
    /// - Throws: ``FleetTripsError/Code/unwritableOutput`` when `output` cannot be written (its
    ///   reader is gone, as after `| head -1`): the tool's own failure, not a status of Fleet
    ///   Engine's. With `--json` it is reported on `errorOutput` as one JSON object instead.
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        if let (host, port) = try webOptions.address() {
            let serving = TripPagesServing(
                names: names, providerID: try providerID(), interval: .seconds(interval),
                requestBudget: try requestBudget(), host: host, port: port, options: try webOptions.pagesOptions(),
                shareExpiry: .seconds(webOptions.shareExpiry))
            // Not a failed call: reported as the tool's own failure, not as a status.
            var listenFailure: WebListenFailure?
            try await connection.session().run(errorOutput: &errorOutput) { client, notices in
                do {
                    try await serving.run(client: client, errorOutput: &notices)
                } catch let failure as WebListenFailure {
                    listenFailure = failure
                }
            }
            if let listenFailure { throw listenFailure }
            return
        }
        let following = TripFollowing(
            names: names, providerID: try providerID(), interval: .seconds(interval),
            format: human ? .human : .json, progress: progress, requestBudget: try requestBudget())
        try await connection.session().run(errorOutput: &errorOutput) { client, notices in
            try await following.run(client: client, output: &output, notices: &notices)
        }
    }
}
