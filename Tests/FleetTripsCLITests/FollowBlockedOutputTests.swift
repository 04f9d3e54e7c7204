import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing
import TripTracking

@testable import FleetTripsCLI

@Suite("fleettrips follow into an output that blocks")
struct FollowBlockedOutputTests {
    /// Sets the emulator's trip `name` to `trip`'s values of the fields of `paths`.
    static func update(_ name: String, _ json: String, paths: [String], in emulator: FleetEngineEmulator) throws {
        var request = UpdateTripRequest()
        request.name = name
        request.trip = try Trip(jsonString: json)
        request.updateMask = FieldMask()
        request.updateMask?.paths = paths
        _ = try emulator.service.updateTrip(request)
    }

    @Test(
        "events wait in the library, not in follow: past the limit follow ends with RESOURCE_EXHAUSTED naming the trip",
        .timeLimit(.minutes(10)))
    func blockedOutputEndsWithResourceExhausted() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            try ClientCommandTests.createNewTrip("blocked", in: emulator)
            let name = ClientCommandTests.name("blocked")
            let port = try await emulator.listeningPort()
            let command = try #require(
                try CommandRunner.parse(
                    ["follow", name, "--deadline", ClientCommandTests.callDeadline]
                        + ClientCommandTests.connection(port)) as? FollowCommand)
            let session = try command.connection.session()
            // Above the events one refresh can bring (one per part of the trip), so only the
            // blocked output makes them pile up.
            let limit = 16
            let following = TripFollowing(
                names: [name], providerID: ClientCommandTests.provider, interval: .milliseconds(20), format: .json)
            let gate = OutputGate()
            let outcome = try await withFleetEngineClient(
                configuration: session.configuration, tokenProvider: session.tokenSource.tokenProvider
            ) { client -> (any Error)? in
                let service = TripService(
                    client: client, providerID: ClientCommandTests.provider,
                    defaultOptions: TripModelOptions(
                        autoRefreshTimeInterval: .milliseconds(20), updatesBufferLimit: limit))
                let model = service.tripModel(for: name)
                // The writer blocks its thread while the gate is shut: a queue of its own, so that it
                // holds none of the two or so threads of Swift's global pool that every test shares.
                async let outcome: (any Error)? = withTaskExecutorPreference(
                    SerialQueueExecutor(label: "follow-writer")
                ) {
                    var output = GatedOutput(gate: gate)
                    var notices: [UInt8] = []
                    do {
                        try await following.run(service: service, output: &output, notices: &notices)
                        return nil
                    } catch {
                        return error
                    }
                }
                // The first event's line is being written, and waits: every change from now on is
                // an event the output cannot take yet.
                await waitUntil { gate.writesBegun > 0 }
                var changes = 0
                // The library stops fetching a trip whose only listener fell too far behind.
                while model.modelState == .following, changes < 8 * limit {
                    changes += 1
                    try Self.update(
                        name, #"{"numberOfPassengers":\#(changes % 2 + 1)}"#, paths: ["number_of_passengers"],
                        in: emulator)
                    // Refreshes of one trip follow one another: the second call to arrive after the
                    // change began after the first had been answered, which had the change.
                    let calls = emulator.callCount
                    await waitUntil { emulator.callCount >= calls + 2 || model.modelState != .following }
                }
                #expect(model.modelState == .idle, "\(changes) changes")
                gate.open()
                // Without a limit follow would print every change and this, then end without an error.
                try Self.update(name, #"{"tripStatus":"CANCELED"}"#, paths: ["trip_status"], in: emulator)
                return await outcome
            }
            let error = try #require(outcome as? FleetEngineError)
            #expect(error.code == .resourceExhausted)
            #expect(error.message.hasPrefix("\(limit) trip events of \(name) waited to be written"), "\(error.message)")
            // What came before the limit was written, in order, each line whole.
            let lines = gate.written.split(separator: "\n")
            #expect(!lines.isEmpty)
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["trip"] as? String == name, "\(line)")
                #expect(object?["tripStatus"] as? String != "CANCELED", "\(line)")
            }
        }
    }
}
