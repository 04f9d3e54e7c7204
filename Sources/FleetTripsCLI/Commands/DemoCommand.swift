import ArgumentParser
import FleetEngineClient
import FleetEngineEmulator
import FleetEngineStatus
import Logging

/// `fleettrips demo`: the whole product in one command. Starts the emulator in this process with a
/// simulated trip, follows the trip over gRPC on loopback to COMPLETE, and prints every event.
struct DemoCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start a local Fleet Engine with a simulated trip and follow it to COMPLETE, printing each event.",
        discussion: """
            The emulator listens on 127.0.0.1 (a free port); the trip's vehicle drives to the pickup, waits, and \
            drives to the dropoff, SPEED times faster than real time. Events are printed for people, or as the \
            JSON lines of `fleettrips follow` with --json-lines. With --web, the trip's live page is served \
            instead (its URL on standard error), and the demo goes on after the trip ends, until SIGINT or SIGTERM.
            """
    )

    /// How much faster than real time the trip runs.
    @Option(help: ArgumentHelp("Run the simulated trip this many times faster than real time.", valueName: "factor"))
    var speed = 60.0

    /// The simulation's seed.
    @Option(help: "The simulation's seed; each seed gives another trip.")
    var seed: UInt64 = 7

    /// Seconds between refreshes.
    @Option(help: ArgumentHelp("Seconds between two refreshes of the trip.", valueName: "seconds"))
    var interval = 0.5

    /// Progress events too.
    @Flag(help: "Also print navigation-style progress events, as `fleettrips follow --progress` does.")
    var progress = false

    /// JSON lines instead of text.
    @Flag(help: "Print the JSON lines of `fleettrips follow` instead of text.")
    var jsonLines = false

    /// `--web` and its options.
    @OptionGroup(title: "Web pages") var webOptions: WebOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a speed or interval that is not a positive number.
    func validate() throws {
        guard speed > 0, speed.isFinite, speed <= 10_000 else {
            throw ValidationError("--speed must be a positive number, at most 10000")
        }
        guard interval > 0, interval.isFinite, interval <= 60 else {
            throw ValidationError("--interval must be a positive number of seconds, at most 60")
        }
        if webOptions.web != nil, progress || jsonLines {
            throw ValidationError(
                "--web serves pages instead of printing events: leave out --progress and --json-lines")
        }
    }

    /// Runs the emulator and follows its trip, printing to `output`; a failure goes to `errorOutput`.
    ///
    /// The emulator runs in a `ServiceGroup`: SIGINT or SIGTERM ends the following, then shuts the
    /// emulator down gracefully, and the demo ends with status 0. Only warnings and errors are logged (to standard error), to keep
    /// the demo's own lines readable.
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        let provider = "demo-project"
        let logger = Logger.standardError(label: "fleettrips.demo", level: .warning)
        let emulator = try FleetEngineEmulator(
            configuration: EmulatorConfiguration(accessPolicy: .noAuth), logger: logger)
        let followingShutdown = FollowingShutdown()
        let group = EmulatorServiceGroup(
            emulator: emulator, servicesStoppingFirst: [followingShutdown], logger: logger)
        try await group.run(stoppingAfterBody: true) {
            let names = try emulator.simulate(providerID: provider, count: 1, seed: seed, speed: speed)
            let port = try await emulator.listeningPort()
            if let (host, webPort) = try webOptions.address() {
                try errorOutput.write(Array("emulator: 127.0.0.1:\(port)\n".utf8))
                let serving = TripPagesServing(
                    names: names, providerID: provider, interval: .seconds(interval), host: host, port: webPort,
                    options: try webOptions.pagesOptions(), shareExpiry: .seconds(webOptions.shareExpiry))
                let session = TripServiceSession(
                    configuration: .plaintext(port: port), tokenSource: .none, reportsJSON: false)
                // Not a failed call: reported as the tool's own failure, not as a status.
                var listenFailure: WebListenFailure?
                try await session.run(errorOutput: &errorOutput) { client, notices in
                    do {
                        try await serving.run(client: client, errorOutput: &notices, relay: followingShutdown)
                    } catch let failure as WebListenFailure {
                        listenFailure = failure
                    }
                }
                if let listenFailure { throw listenFailure }
                return
            }
            let header = "following \(names.joined(separator: ", ")) on the emulator at 127.0.0.1:\(port)\n"
            if !jsonLines { try output.write(Array(header.utf8)) }
            let following = TripFollowing(
                names: names, providerID: provider, interval: .seconds(interval),
                format: jsonLines ? .json : .human, progress: progress)
            let session = TripServiceSession(
                configuration: .plaintext(port: port), tokenSource: .none, reportsJSON: jsonLines)
            try await session.run(errorOutput: &errorOutput) { client, notices in
                let service = following.tripService(client: client)
                followingShutdown.follow(service)
                do {
                    try await following.run(service: service, output: &output, notices: &notices)
                } catch {
                    // SIGINT or SIGTERM shut the following down: the demo ends as asked, as
                    // `serve` does, rather than reporting the trips' end as a failure.
                    guard followingShutdown.isShuttingDown else { throw error }
                }
            }
        }
    }
}
