import ArgumentParser
import ClientComparison
import NIOCore
import NIOPosix

/// GetTrip in a closed loop from one client, printing one JSON line of results.
///
///     ClientLoad --client ours|grpc-swift --concurrency N --seconds S --port P [--trip NAME]
///
/// N tasks each call GetTrip, wait for the answer and call again. After one check call and a
/// warm-up, the measured window runs S seconds; its latencies are per call, from issue to decoded
/// response, and its CPU time is the whole process's (every thread: the callers, the event loops)
/// from getrusage. A shorter window with allocation counting on follows, so that counting does
/// not cost the measured window anything. Scripts/client-load.py runs both clients against one
/// server and tabulates the lines.
///
/// `--nio-global-executor` makes NIO's event loops Swift Concurrency's global executor, so that the
/// callers' tasks run on the thread that does the I/O: an experiment on what the hops between
/// the two thread pools cost, not how an application would normally run.
///
/// `--task-executor` makes the callers' tasks prefer the client's own task executor
/// (FleetEngineClient's `taskExecutor`, the connection's event loop), as an application that makes
/// many calls can, and as TripService does; grpc-swift-2's client offers none, so it is unchanged.
@main
enum ClientLoadMain {
    static func main() async {
        // The executor has to be replaced before any task is enqueued, so before parsing.
        if CommandLine.arguments.contains("--nio-global-executor") {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        await ClientLoad.main()
    }
}

struct ClientLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Closed-loop GetTrip load from one gRPC client; prints one JSON line."
    )

    @Option(help: "The client: ours or grpc-swift.")
    var client: ClientKind

    @Option(help: "How many calls are in flight at once.")
    var concurrency: Int

    @Option(help: "How long the measured window lasts, in seconds.")
    var seconds: Double

    @Option(help: "The port of the gRPC server on 127.0.0.1 (plaintext unless --tls-ca is given).")
    var port: Int

    @Option(help: "Speak TLS, trusting the certificates of this PEM file (ours only).")
    var tlsCA: String?

    @Option(help: "With --tls-ca: the name the server's certificate was issued to.")
    var tlsServerName = "localhost"

    @Option(help: "With --tls-ca: append the client's TLS key log (NSS format) to this file.")
    var keylogFile: String?

    @Option(help: "The trip to get.")
    var trip = "providers/test-project/trips/trip-large"

    @Option(help: "How long to run before measuring, in seconds.")
    var warmUpSeconds = 1.0

    @Option(help: "How long to count allocations after the measured window, in seconds; 0 skips it.")
    var allocationSeconds = 2.0

    @Flag(help: "Run Swift Concurrency's tasks on NIO's event loops (an experiment).")
    var nioGlobalExecutor = false

    @Flag(help: "Run the callers' tasks on the client's own task executor, where it offers one.")
    var taskExecutor = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        guard warmUpSeconds >= 0, allocationSeconds >= 0 else {
            throw ValidationError("--warm-up-seconds and --allocation-seconds must not be negative")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be a TCP port") }
        if keylogFile != nil, tlsCA == nil { throw ValidationError("--keylog-file needs --tls-ca") }
    }

    func run() async throws {
        let tls = tlsCA.map {
            BenchmarkTLS(caCertificatePath: $0, serverHostname: tlsServerName, keyLogPath: keylogFile)
        }
        let report = try await client.withCaller(port: port, tripName: trip, tls: tls) { caller in
            let answered = try await caller.getTrip()
            guard answered == trip else {
                throw ValidationError("GetTrip of \(trip) answered the trip \(answered)")
            }
            if warmUpSeconds > 0 {
                _ = try await ClosedLoop(
                    concurrency: concurrency, duration: .seconds(warmUpSeconds), onClientExecutor: taskExecutor
                ).run(caller)
            }
            let measured = try await ClosedLoop(
                concurrency: concurrency, duration: .seconds(seconds), onClientExecutor: taskExecutor
            ).run(caller)
            var allocationsPerCall: Double?
            if allocationSeconds > 0 {
                let loop = ClosedLoop(
                    concurrency: concurrency, duration: .seconds(allocationSeconds), onClientExecutor: taskExecutor)
                let (counted, allocations) = try await AllocationCounter.counting { try await loop.run(caller) }
                // No client gets through a call without allocating: zero means the counter is not
                // in the allocation path (not Linux with glibc), not that nothing was allocated.
                if allocations > 0 { allocationsPerCall = Double(allocations) / Double(counted.calls) }
            }
            return LoadReport(
                client: client, concurrency: concurrency, nioGlobalExecutor: nioGlobalExecutor,
                taskExecutor: taskExecutor && caller.preferredTaskExecutor != nil, sample: measured,
                allocationsPerCall: allocationsPerCall)
        }
        print(report.jsonLine)
    }
}

extension ClientKind: ExpressibleByArgument {}
