import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Foundation
import Testing
import TripTracking

@testable import FleetTripsCLI

@Suite("fleettrips follow and fleettrips demo")
struct FollowCommandTests {
    /// The output's lines as JSON objects; every line must be one.
    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// Runs `command`, handing each line it prints, as a JSON object, to `react` as soon as it is
    /// printed (so a test can move the emulator on), and returns every line once the command ends.
    static func run(
        _ command: sending FollowCommand, reacting react: ([String: Any]) throws -> Void
    ) async throws -> [[String: Any]] {
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        async let finished: Void = {
            var output = LineStream(sink: sink)
            var errorOutput: [UInt8] = []
            defer { sink.finish() }
            try await command.run(output: &output, errorOutput: &errorOutput)
        }()
        var objects: [[String: Any]] = []
        for await line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            objects.append(object)
            try react(object)
        }
        try await finished
        return objects
    }

    static func statuses(_ objects: [[String: Any]], trip: String) -> [String] {
        objects.filter { $0["trip"] as? String == trip && $0["event"] as? String == "tripStatus" }
            .compactMap { $0["tripStatus"] as? String }
    }

    @Test(
        "an output that cannot be written ends follow with that error, not a gRPC status blaming the service",
        .timeLimit(.minutes(10)))
    func unwritableOutput() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let names = try emulator.simulate(providerID: ClientCommandTests.provider, count: 1, seed: 3)
            let port = try await emulator.listeningPort()
            for json in [false, true] {
                let command = try #require(
                    try CommandRunner.parse(
                        ["follow"] + names + ["--interval", "0.05", "--deadline", ClientCommandTests.callDeadline]
                            + ClientCommandTests.connection(port) + (json ? ["--json"] : [])) as? FollowCommand)
                try await UnwritableCallOutputTests.expectOutputFailureReported(command, json: json)
            }
        }
    }

    @Test(
        "two simulated trips followed to COMPLETE: one JSON object per event, the contract's members",
        .timeLimit(.minutes(10)))
    func followsToComplete() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let names = try emulator.simulate(providerID: ClientCommandTests.provider, count: 2, seed: 3, speed: 300)
            let result = try await ClientCommandTests.call(
                ["follow"] + names + ["--interval", "0.05"]
                    + ClientCommandTests.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 0)
            #expect(result.errorOutput == "")
            let objects = try Self.objects(result.output)
            for name in names {
                let statuses = Self.statuses(objects, trip: name)
                #expect(statuses.last == "COMPLETE", "\(name): \(statuses)")
                let own = objects.filter { $0["trip"] as? String == name }
                #expect(own.first?["event"] as? String == "tripUpdated")
                let message = own.first?["message"] as? [String: Any]
                #expect(message?["name"] as? String == name)
                #expect((own.first?["fields"] as? [String])?.contains("tripStatus") == true)
                for object in own {
                    switch object["event"] as? String {
                    case "remainingDistance":
                        #expect(
                            object["remainingDistanceMeters"] is NSNumber || object["remainingDistanceMeters"] is NSNull
                        )
                    case "vehicleLocation":
                        let location = object["vehicleLocation"] as? [String: Any]
                        #expect((location?["location"] as? [String: Any])?["latitude"] is NSNumber)
                    case "updateFailed":
                        Issue.record("unexpected failure: \(object)")
                    default:
                        break
                    }
                }
            }
        }
    }

    @Test(
        "a trip given twice, by its id and by its full name, is followed once: each event is one line",
        .timeLimit(.minutes(10)))
    func sameTripTwice() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let names = try emulator.simulate(providerID: ClientCommandTests.provider, count: 1, seed: 5, speed: 300)
            let name = try #require(names.first)
            let result = try await ClientCommandTests.call(
                ["follow", TripName.lastSegment(of: name), name, "--provider", ClientCommandTests.provider]
                    + ["--interval", "0.05"] + ClientCommandTests.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 0)
            let objects = try Self.objects(result.output)
            #expect(objects.allSatisfy { $0["trip"] as? String == name })
            #expect(objects.count { $0["event"] as? String == "tripUpdated" } >= 1)
            let statuses = Self.statuses(objects, trip: name)
            #expect(statuses.last == "COMPLETE")
            #expect(statuses.count { $0 == "COMPLETE" } == 1, "\(statuses)")
            #expect(zip(statuses, statuses.dropFirst()).allSatisfy { $0 != $1 }, "\(statuses)")
        }
    }

    @Test(
        "a trip that does not exist yet: updateFailed lines with code and name, then followed until CANCELED",
        .timeLimit(.minutes(10)))
    func failureThenCanceled() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let port = try await emulator.listeningPort()
            let name = ClientCommandTests.name("later")
            let command = try #require(
                try CommandRunner.parse(
                    ["follow", "later", "--provider", ClientCommandTests.provider, "--interval", "0.05"]
                        + ClientCommandTests.connection(port)) as? FollowCommand)
            var created = false
            var canceled = false
            let objects = try await Self.run(command) { object in
                if !created, object["event"] as? String == "updateFailed" {
                    created = true
                    var create = CreateTripRequest()
                    create.parent = "providers/\(ClientCommandTests.provider)"
                    create.tripID = "later"
                    create.trip = try Trip(jsonString: ClientCommandTests.newTripJSON)
                    _ = try emulator.service.createTrip(create)
                }
                if !canceled, object["tripStatus"] as? String == "NEW" {
                    canceled = true
                    var cancel = UpdateTripRequest()
                    cancel.name = name
                    cancel.trip = try Trip(jsonString: #"{"tripStatus":"CANCELED"}"#)
                    cancel.updateMask = FieldMask()
                    cancel.updateMask?.paths = ["trip_status"]
                    _ = try emulator.service.updateTrip(cancel)
                }
            }
            let failure = try #require(objects.first { $0["event"] as? String == "updateFailed" })
            #expect(failure["trip"] as? String == name)
            let error = try #require(failure["error"] as? [String: Any])
            #expect(error["code"] as? Int == 5)
            #expect(error["name"] as? String == "NOT_FOUND")
            #expect(Self.statuses(objects, trip: name) == ["NEW", "CANCELED"])
        }
    }

    @Test("--progress prints navigation-style progress lines beside the trip events", .timeLimit(.minutes(10)))
    func progressLines() async throws {
        // The emulator's clock moves only when a refresh was printed, so every stage of the trip is
        // seen however slow the machine is.
        let clock = ManualTimeSource(start: Timestamp(seconds: 1_700_000_000, nanos: 0))
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth), time: clock) { emulator in
            let names = try emulator.simulate(providerID: ClientCommandTests.provider, count: 1, seed: 5)
            let command = try #require(
                try CommandRunner.parse(
                    ["follow", "--progress"] + names + ["--interval", "0.02"]
                        + ClientCommandTests.connection(try await emulator.listeningPort())) as? FollowCommand)
            let objects = try await Self.run(command) { object in
                if object["event"] as? String == "tripUpdated" { clock.advance(by: .seconds(15)) }
            }
            let events = Set(objects.compactMap { $0["event"] as? String })
            #expect(events.isSuperset(of: ["tripUpdated", "tripStatus", "routeChanged", "locationUpdated"]))
            // The trip events were listened to before the first refresh, which the progress
            // monitor's listening also starts: the first trip event is that refresh's, where the
            // pickup point appeared.
            // (Looked up outside #require: Swift 6.3 can give a closure inside a macro's argument
            // and a later closure the same body; Scripts/check-test-closures.py finds that.)
            let firstUpdate = objects.first { $0["event"] as? String == "tripUpdated" }
            let initial = try #require(firstUpdate)
            #expect((initial["fields"] as? [String])?.contains("pickupLocation") == true, "\(initial)")
            let arrivals = objects.filter { $0["event"] as? String == "arrivedAtWaypoint" }
            let types = arrivals.compactMap { ($0["waypoint"] as? [String: Any])?["waypointType"] as? String }
            #expect(types.last == "DROP_OFF_WAYPOINT_TYPE")
            #expect(types.contains("PICKUP_WAYPOINT_TYPE"))
            for object in objects where object["event"] as? String == "remainingDistanceUpdated" {
                #expect(object["remainingDistanceMeters"] is NSNumber)
            }
            let location = objects.first { $0["event"] as? String == "locationUpdated" }?["location"] as? [String: Any]
            #expect(location?["latitude"] is NSNumber)
            #expect(location?["time"] is String)
            #expect(Self.statuses(objects, trip: names[0]).last == "COMPLETE")
        }
    }

    @Test("demo follows its simulated trip to COMPLETE, as JSON lines and as text", .timeLimit(.minutes(10)))
    func demo() async throws {
        let json = try await ClientCommandTests.call(["demo", "--speed", "400", "--interval", "0.05", "--json-lines"])
        #expect(json.exitCode == 0)
        let objects = try Self.objects(json.output)
        let trip = try #require(objects.first?["trip"] as? String)
        #expect(trip.hasPrefix("providers/demo-project/trips/"))
        #expect(Self.statuses(objects, trip: trip).last == "COMPLETE")
        let text = try await ClientCommandTests.call(["demo", "--speed", "400", "--interval", "0.05"])
        #expect(text.exitCode == 0)
        #expect(text.output.hasPrefix("following providers/demo-project/trips/"))
        #expect(text.output.contains("status COMPLETE\n"))
    }

    @Test(
        "follow refuses no names, bare ids without --provider, several providers, and a bad interval",
        arguments: [
            ["follow"],
            ["follow", "abc"],
            ["follow", "providers/a/trips/x", "providers/b/trips/y"],
            ["follow", "providers/a/trips/x", "--interval", "0"],
            ["follow", "not/a/name"],
            ["follow", "providers/a/trips/x", "--max-calls-per-minute", "0"],
            ["follow", "providers/a/trips/x", "--max-calls-per-minute", "-5"],
            ["follow", "providers/a/trips/x", "--max-calls-per-minute", "lots"],
        ])
    func refusesArguments(_ arguments: [String]) {
        #expect(throws: (any Error).self) { _ = try CommandRunner.parse(arguments) }
    }

    @Test(
        "--max-calls-per-minute sets the trip service's budget: Fleet Engine's 9000 by default, or unlimited",
        arguments: [
            ([String](), RequestBudget.fleetEngineDefault),
            (["--max-calls-per-minute", "120"], RequestBudget(callsPerMinute: 120)),
            (["--max-calls-per-minute", "unlimited"], RequestBudget.unlimited),
        ])
    func requestBudget(_ options: [String], _ expected: RequestBudget) throws {
        let command = try #require(
            try CommandRunner.parse(["follow", "providers/a/trips/x"] + options) as? FollowCommand)
        #expect(try command.requestBudget() == expected)
    }
}

/// An output that hands each line to a stream as soon as it is written, so a test can act on
/// what a running command printed.
struct LineStream: ByteSink {
    let sink: AsyncStream<String>.Continuation
    private var pending: [UInt8] = []

    init(sink: AsyncStream<String>.Continuation) {
        self.sink = sink
    }

    mutating func write(_ bytes: [UInt8]) {
        pending += bytes
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            sink.yield(String(decoding: pending[..<end], as: UTF8.self))
            pending.removeSubrange(...end)
        }
    }
}
