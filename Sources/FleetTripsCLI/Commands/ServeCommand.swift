import ArgumentParser
import FleetEngineAuth
import FleetEngineEmulator
import FleetEngineStatus
import Foundation
import Logging

/// `fleettrips serve`: a local Fleet Engine TripService (the emulator).
struct ServeCommand: AsyncParsableCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local Fleet Engine TripService over gRPC (the emulator).",
        discussion: """
            Prints "listening on HOST:PORT" once it accepts calls, then, with --simulate, the name of each \
            simulated trip on its own line. Exits cleanly on SIGINT or SIGTERM, letting calls in flight finish.
            """
    )

    /// The address to listen on.
    @Option(help: "The address to listen on: an IP address, or a name this machine resolves (localhost).")
    var host = "127.0.0.1"

    /// The port; 0 picks a free one.
    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    /// Accept every call without a token.
    @Flag(help: "Accept calls without checking tokens.")
    var noAuth = false

    /// HS256 secret tokens are checked with.
    @Option(
        help: ArgumentHelp(
            "Verify HS256 tokens with this secret, for local use (other users may see it in the process list; "
                + "prefer --jwt-secret-file).",
            valueName: "secret"))
    var jwtSecret: String?

    /// A file that holds the HS256 secret.
    @Option(
        help: ArgumentHelp(
            "Verify HS256 tokens with the secret in this file, trimmed of the whitespace around it.",
            valueName: "path"))
    var jwtSecretFile: String?

    /// RS256 public key tokens are checked with.
    @Option(
        help: ArgumentHelp(
            "Verify RS256 tokens with this RSA public key (a PEM file, or the PEM text). For tokens that "
                + "`fleettrips token --service-account KEY.json` mints, the public half of that key: "
                + "`jq -r .private_key KEY.json | openssl pkey -pubout`."))
    var jwtPublicKey: String?

    /// Seed simulated trips.
    @Flag(help: "Seed simulated trips whose vehicles move along their routes.")
    var simulate = false

    /// How much faster than real time the simulation runs.
    @Option(help: "Run the simulation this many times faster than real time.")
    var speed = 1.0

    /// The simulation's seed.
    @Option(help: "The simulation's seed; the same seed gives the same trips.")
    var seed: UInt64 = 1

    /// How many trips to simulate.
    @Option(help: "How many trips to simulate.")
    var trips = 5

    /// The provider of simulated trips.
    @Option(help: "The provider (project) id of simulated trips.")
    var provider = "emulator-project"

    /// Where to keep trips across restarts.
    @Option(help: "Keep trips in this folder across restarts (every acknowledged write is synced to disk).")
    var data: String?

    /// TLS certificate chain.
    @Option(help: "Serve TLS with this PEM certificate chain (with --tls-key).")
    var tlsCert: String?

    /// TLS private key.
    @Option(
        help: ArgumentHelp(
            "The private key of --tls-cert: a PEM file, or the PEM text (other users may see text in the process "
                + "list; prefer a file).",
            valueName: "path"))
    var tlsKey: String?

    /// Rate limit per token.
    @Option(help: "Allow at most this many calls per second per token; more get RESOURCE_EXHAUSTED with RetryInfo.")
    var qps: Double?

    /// The project's quota.
    @Option(
        help: ArgumentHelp(
            "Allow at most this many TripService calls per minute from all callers together, as Fleet Engine's "
                + "project quota; more get RESOURCE_EXHAUSTED with RetryInfo and QuotaFailure.",
            discussion: "Enforced smoothly: a second's worth of calls (N/60, at least 1) may come at once, "
                + "then calls are let through at N/60 per second.",
            valueName: "n"))
    var quotaPerMinute: Int?

    /// Fail every Nth call.
    @Option(help: "Fail every Nth call with --fail-code.")
    var failEvery: Int?

    /// The code of injected failures.
    @Option(help: "The status code of injected failures (a name or a number).")
    var failCode = "UNAVAILABLE"

    /// Added latency.
    @Option(help: "Wait this many milliseconds before answering each call (or each Nth, with --delay-every).")
    var delayMs = 0

    /// Delay only some calls.
    @Option(help: "With --delay-ms, delay only every Nth call (counting calls of all methods from 1).")
    var delayEvery: Int?

    /// Drop connections.
    @Option(help: "Close each connection abruptly when its Nth call arrives.")
    var dropConnectionAt: Int?

    /// GOAWAY after an age.
    @Option(help: "Send GOAWAY on each connection once it is this many milliseconds old.")
    var goawayAfterMs: Int?

    /// The emulator's own limits, which the limit options default to.
    private static let defaultLimits = EmulatorConfiguration(accessPolicy: .noAuth)

    /// Streams one connection may have open at once.
    @Option(
        help: ArgumentHelp(
            "Allow at most this many calls at once on one connection (HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS).",
            valueName: "n"))
    var maxConcurrentStreams = ServeCommand.defaultLimits.maxConcurrentStreamsPerConnection

    /// Seconds a connection with no call is kept.
    @Option(
        help: ArgumentHelp(
            "Close a connection that has had no call in flight for this many seconds (with GOAWAY).",
            valueName: "seconds"))
    var idleTimeout = Int(ServeCommand.defaultLimits.connectionIdleTimeout.components.seconds)

    /// The largest request message accepted.
    @Option(
        help: ArgumentHelp(
            "Refuse a request message over this many bytes with RESOURCE_EXHAUSTED, before decoding it.",
            valueName: "bytes"))
    var maxRequestSize = ServeCommand.defaultLimits.maxRequestMessageSize

    /// The most memory decoding one request may take.
    @Option(
        help: ArgumentHelp(
            "Fail a call with RESOURCE_EXHAUSTED when decoding its request would take more than this many bytes "
                + "of memory.",
            valueName: "bytes"))
    var maxDecodedRequestSize = ServeCommand.defaultLimits.maxDecodedRequestSize

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    func validate() throws {
        let modes = [noAuth, jwtSecret != nil, jwtSecretFile != nil, jwtPublicKey != nil].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError("give exactly one of --no-auth, --jwt-secret, --jwt-secret-file and --jwt-public-key")
        }
        if jwtSecretFile?.isEmpty == true { throw ValidationError("--jwt-secret-file needs a path") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard speed > 0, speed <= FleetEngineEmulator.maximumMotionSpeed else {
            throw ValidationError(
                "--speed must be a positive number, at most \(Int(FleetEngineEmulator.maximumMotionSpeed))")
        }
        guard (0...FleetEngineEmulator.maximumSimulatedTrips).contains(trips) else {
            throw ValidationError("--trips must be 0 to \(FleetEngineEmulator.maximumSimulatedTrips)")
        }
        if let qps, !(0.001...1_000_000).contains(qps) {
            throw ValidationError("--qps must be a number of calls per second from 0.001 to 1000000")
        }
        if let quotaPerMinute, quotaPerMinute < 1 {
            throw ValidationError("--quota-per-minute must be at least 1 call per minute")
        }
        if let failEvery, failEvery < 1 { throw ValidationError("--fail-every must be at least 1") }
        if let dropConnectionAt, dropConnectionAt < 1 {
            throw ValidationError("--drop-connection-at must be at least 1")
        }
        guard delayMs >= 0 else { throw ValidationError("--delay-ms must not be negative") }
        if let delayEvery, delayEvery < 1 { throw ValidationError("--delay-every must be at least 1") }
        if let goawayAfterMs, goawayAfterMs < 1 { throw ValidationError("--goaway-after-ms must be at least 1") }
        try validateLimits()
        guard let code = parsedFailCode else {
            throw ValidationError("--fail-code: \"\(failCode)\" is not a status code")
        }
        guard code != .ok else {
            throw ValidationError("--fail-code: OK (0) is not a failure; give the code the injected failures end with")
        }
    }

    /// Refuses a limit that would stop every call or that HTTP/2 or gRPC cannot carry: a stream
    /// count is a 31-bit stream identifier's worth at most (RFC 9113 section 5.1.1), and a request's
    /// size a 32-bit gRPC length prefix's (gRPC PROTOCOL-HTTP2, Length-Prefixed-Message).
    private func validateLimits() throws {
        guard (1...Int(Int32.max)).contains(maxConcurrentStreams) else {
            throw ValidationError("--max-concurrent-streams must be 1 to \(Int32.max)")
        }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1 second") }
        guard (1...Int(UInt32.max)).contains(maxRequestSize) else {
            throw ValidationError("--max-request-size must be 1 to \(UInt32.max) bytes")
        }
        guard maxDecodedRequestSize >= 1 else {
            throw ValidationError("--max-decoded-request-size must be at least 1 byte")
        }
    }

    /// `--fail-code` as `fleettrips status` reads a code: a name in any case, or a number that fits
    /// the `int32` a `grpc-status` is.
    private var parsedFailCode: StatusCode? {
        try? StatusCode.parsingArgument(failCode)
    }

    /// The emulator's configuration from the arguments.
    func emulatorConfiguration() throws -> EmulatorConfiguration {
        let policy: AccessPolicy
        if let jwtSecret {
            policy = .verify(TokenVerifier(keys: [try .hs256(secret: jwtSecret)]))
        } else if let jwtSecretFile {
            let secret = try KeyMaterial.secret(inFile: jwtSecretFile, option: "--jwt-secret-file")
            policy = .verify(TokenVerifier(keys: [try .hs256(secret: secret)]))
        } else if let jwtPublicKey {
            let pem = try KeyMaterial.pem(jwtPublicKey, option: "--jwt-public-key")
            policy = .verify(TokenVerifier(keys: [try .rs256(publicKeyPEM: pem)]))
        } else {
            policy = .noAuth
        }
        var configuration = EmulatorConfiguration(accessPolicy: policy)
        configuration.host = host
        configuration.port = port
        configuration.dataDirectory = data
        if let tlsCert, let tlsKey {
            configuration.tls = (
                try KeyMaterial.pem(tlsCert, option: "--tls-cert"), try KeyMaterial.pem(tlsKey, option: "--tls-key")
            )
        }
        configuration.quotaPerMinute = quotaPerMinute
        configuration.maxConcurrentStreamsPerConnection = maxConcurrentStreams
        configuration.connectionIdleTimeout = .seconds(idleTimeout)
        configuration.maxRequestMessageSize = maxRequestSize
        configuration.maxDecodedRequestSize = maxDecodedRequestSize
        configuration.faults.queriesPerSecond = qps
        configuration.faults.failEvery = failEvery
        configuration.faults.failCode = parsedFailCode ?? .unavailable
        configuration.faults.delay = .milliseconds(delayMs)
        configuration.faults.delayEvery = delayEvery
        configuration.faults.dropConnectionAtCall = dropConnectionAt
        configuration.faults.goAwayAfter = goawayAfterMs.map { .milliseconds($0) }
        return configuration
    }

    /// `HOST:PORT` as the listening line shows it: an IPv6 address in brackets, once (`--host '[::1]'`
    /// is already bracketed).
    static func shownAddress(host: String, port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully: the emulator runs in a
    /// `ServiceGroup` and logs to standard error.
    func run() async throws {
        let logger = Logger.standardError(label: "fleettrips.serve", level: .info)
        let emulator = try FleetEngineEmulator(configuration: emulatorConfiguration(), logger: logger)
        try await EmulatorServiceGroup(emulator: emulator, logger: logger).run(stoppingAfterBody: false) {
            var output = StandardOutput()
            let port = try await emulator.listeningPort()
            try output.write(Array("listening on \(Self.shownAddress(host: host, port: port))\n".utf8))
            if simulate {
                // With a data folder, a simulated trip that was updated before a restart stopped
                // moving and was kept: it stays as it was kept rather than failing the start.
                let names = try emulator.simulate(
                    providerID: provider, count: trips, seed: seed, speed: speed, keepingStoredTrips: true)
                try output.write(Array(names.map { $0 + "\n" }.joined().utf8))
            }
        }
    }
}
