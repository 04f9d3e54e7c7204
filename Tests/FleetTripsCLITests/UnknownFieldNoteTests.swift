import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineTestSupport
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("Trips printed as JSON say on standard error which fields the JSON leaves out, as decode does")
struct UnknownFieldNoteTests {
    /// Runs `body` with an emulator serving ``UnknownFieldMotion``'s trip,
    /// COMPLETE or not, as `providers/test-project/trips/newer`.
    static func withNewerTrip(
        complete: Bool,
        _ body: @Sendable (FleetEngineEmulator, String, [String]) async throws -> Void
    ) async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let name = ClientCommandTests.name("newer")
            try emulator.addMovingTrip(named: name, motion: UnknownFieldMotion(complete: complete))
            try await body(emulator, name, ClientCommandTests.connection(try await emulator.listeningPort()))
        }
    }

    @Test("get, search and update: the trip's JSON as before, and a note naming the method and the fields")
    func callCommands() async throws {
        try await Self.withNewerTrip(complete: false) { emulator, name, connection in
            let stored = try ClientCommandTests.stored("newer", in: emulator)
            #expect(!stored.unknownFields.isEmpty)
            let json = try stored.jsonString() + "\n"
            let got = try await ClientCommandTests.call(["get", name] + connection)
            #expect(got.exitCode == 0)
            #expect(got.output == json)
            #expect(got.errorOutput == "note: the trip \(name) GetTrip returned " + UnknownFieldMotion.noted)
            let found = try await ClientCommandTests.call(
                ["search", "--provider", ClientCommandTests.provider] + connection)
            #expect(found.output == json)
            #expect(found.errorOutput == "note: the trip \(name) SearchTrips returned " + UnknownFieldMotion.noted)
            let updated = try await ClientCommandTests.call(
                ["update", name, "--trip", #"{"numberOfPassengers":3}"#, "--mask", "number_of_passengers"]
                    + connection)
            let changed = try ClientCommandTests.stored("newer", in: emulator)
            #expect(updated.output == (try changed.jsonString()) + "\n")
            #expect(updated.errorOutput == "note: the trip \(name) UpdateTrip returned " + UnknownFieldMotion.noted)
        }
    }

    @Test("follow: the tripUpdated line's message as before, and one note for the trip, not one per refresh")
    func follow() async throws {
        try await Self.withNewerTrip(complete: true) { _, name, connection in
            let result = try await ClientCommandTests.call(["follow", name, "--interval", "0.05"] + connection)
            #expect(result.exitCode == 0)
            let objects = try FollowCommandTests.objects(result.output)
            let update = objects.first { $0["event"] as? String == "tripUpdated" }
            let message = try #require(update?["message"] as? [String: Any])
            #expect(message["tripStatus"] as? String == "COMPLETE")
            #expect(message["pickupPoint"] != nil)
            #expect(result.errorOutput == "note: the trip \(name) of a tripUpdated line " + UnknownFieldMotion.noted)
        }
    }

    @Test("capture: a message with a field its schema does not define gets a note with the field's byte offset")
    func capture() throws {
        // GetTripRequest { name: "a", field 127: 1 }, as a request on stream 1 of a raw HTTP/2 stream.
        let message = grpcFramed(hexBytes("1a0161" + "f80701"))
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]
        bytes += [0, 0, UInt8(message.count), 0, 1, 0, 0, 0, 1] + message
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unknown-\(UUID()).h2").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let command = try #require(
            try CommandRunner.parse(["capture", "--h2", "--method", "/maps.fleetengine.v1.TripService/GetTrip", path])
                as? CaptureCommand)
        var output: [UInt8] = []
        var notices: [UInt8] = []
        try command.run(output: &output, notices: &notices)
        let line = try #require(String(decoding: output, as: UTF8.self).split(separator: "\n").first)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect((object?["message"] as? [String: Any])?.count == 1, "\(line)")
        let note =
            "note: the request message of stream 1 on connection 1 (DATA frame at byte 33 of the input) holds a field "
            + "maps.fleetengine.v1.GetTripRequest does not define, which its JSON cannot show: field 127 of "
            + "maps.fleetengine.v1.GetTripRequest at byte 3\n"
        #expect(String(decoding: notices, as: UTF8.self) == note)
    }
}
