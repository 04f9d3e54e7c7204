import FleetEngineCodec
import FleetEngineEmulator
import FleetTripsInput
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("Client commands whose standard output is gone")
struct UnwritableCallOutputTests {
    @Test(
        "get, search, create and update end with the unwritable output, not a gRPC status blaming the service",
        arguments: [
            ["get", ClientCommandTests.name("closed")],
            ["search", "--provider", ClientCommandTests.provider],
            [
                "create", "--provider", ClientCommandTests.provider, "--trip-id", "other", "--trip",
                ClientCommandTests.newTripJSON,
            ],
            [
                "update", ClientCommandTests.name("closed"), "--trip", #"{"numberOfPassengers":3}"#, "--mask",
                "number_of_passengers",
            ],
        ])
    func closedOutput(_ arguments: [String]) async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            try ClientCommandTests.createNewTrip("closed", in: emulator)
            let connection = ClientCommandTests.connection(try await emulator.listeningPort())
            for json in [false, true] {
                // Each run creates a trip of its own.
                let parsed = try CommandRunner.parse(
                    arguments.map { $0 == "other" ? "other-\(json)" : $0 } + [
                        "--deadline", ClientCommandTests.callDeadline,
                    ] + connection + (json ? ["--json"] : []))
                let command = try #require(parsed as? any TripServiceCommand)
                try await Self.expectOutputFailureReported(command, json: json)
            }
        }
    }

    /// Runs `command` into an output that fails every write and expects the failure to be the
    /// tool's own: without `json` thrown as it is, with nothing on standard error; with `json`, the
    /// one JSON object on standard error, naming the unwritable output. Either way the exit status
    /// is 1, a failure of the tool's own, not 64 + the code of a call.
    static func expectOutputFailureReported(_ command: any TripServiceCommand, json: Bool) async throws {
        var output = ClosedOutput()
        var errorOutput: [UInt8] = []
        var thrown: (any Error)?
        do { try await command.run(output: &output, errorOutput: &errorOutput) } catch { thrown = error }
        let report = String(decoding: errorOutput, as: UTF8.self)
        if json {
            // --json keeps its promise of one JSON object on standard error.
            let object = try #require(try FollowCommandTests.objects(report).first)
            #expect(object["message"] as? String == "unwritable output: cannot write to standard output: Broken pipe")
            #expect(CommandRunner.report(for: try #require(thrown)).exitCode == 1)
        } else {
            #expect(report == "")
            #expect((thrown as? FleetTripsError)?.code == .unwritableOutput)
            #expect(CommandRunner.report(for: try #require(thrown)).exitCode == 1)
        }
    }
}
