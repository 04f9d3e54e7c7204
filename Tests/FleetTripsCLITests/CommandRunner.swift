import ArgumentParser
import FleetEngineTestSupport
import Testing

@testable import FleetTripsCLI

/// Runs `fleettrips` commands in-process, on in-memory input, the way the executable would.
enum CommandRunner {
    /// Parses `arguments` as the executable would (validation included).
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try FleetTrips.parseAsRoot(arguments)
    }

    /// Runs `fleettrips decode` with `arguments` on `input` and returns what it wrote, expecting
    /// no note about fields the JSON cannot show.
    static func decode(
        _ arguments: [String], input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [UInt8] {
        let (output, notices) = try decodeWithNotices(arguments, input: input)
        #expect(notices.isEmpty, "\(notices)", sourceLocation: sourceLocation)
        return output
    }

    /// Runs `fleettrips decode` with `arguments` on `input` and returns what it wrote to its
    /// output and to its notices (standard error).
    static func decodeWithNotices(_ arguments: [String], input: [UInt8]) throws -> (output: [UInt8], notices: String) {
        let command = try #require(try parse(["decode"] + arguments) as? DecodeCommand)
        var output: [UInt8] = []
        var notices: [UInt8] = []
        try command.run(input: input, output: &output, notices: &notices)
        return (output, String(decoding: notices, as: UTF8.self))
    }

    /// Runs `fleettrips encode` with `arguments` on `input` and returns what it wrote.
    static func encode(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let command = try #require(try parse(["encode"] + arguments) as? EncodeCommand)
        var output: [UInt8] = []
        try command.run(input: input, output: &output)
        return output
    }

    /// Runs `fleettrips status` with `arguments` and returns what it wrote.
    static func status(_ arguments: [String]) throws -> String {
        let command = try #require(try parse(["status"] + arguments) as? StatusCommand)
        var output: [UInt8] = []
        try command.run(output: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The line the executable prints for `error` (after `Error: `) and its exit status.
    static func report(for error: any Error) -> (message: String, exitCode: Int32) {
        (FleetTrips.message(for: error), FleetTrips.exitCode(for: error).rawValue)
    }
}

/// Small messages with their binary and JSON forms, checked against Google's Python protobuf
/// (`google-maps-fleetengine`, `json_format.MessageToJson`).
enum Samples {
    static let tripType = "maps.fleetengine.v1.Trip"

    /// `Trip(name: "providers/p/trips/t1", vehicle_id: "v1", trip_status: ENROUTE_TO_PICKUP,
    /// number_of_passengers: 2)`.
    static let trip: [UInt8] = hexBytes("0a1470726f7669646572732f702f74726970732f74311202763118025002")
    static let tripBase64 = "ChRwcm92aWRlcnMvcC90cmlwcy90MRICdjEYAlAC"
    static let tripJSON =
        #"{"name":"providers/p/trips/t1","vehicleId":"v1","tripStatus":"ENROUTE_TO_PICKUP","numberOfPassengers":2}"#
    static let tripJSONProtoNames =
        #"{"name":"providers/p/trips/t1","vehicle_id":"v1","trip_status":"ENROUTE_TO_PICKUP","number_of_passengers":2}"#

    /// `Trip(name: "providers/p/trips/t2", trip_status: COMPLETE)`.
    static let secondTrip: [UInt8] = hexBytes("0a1470726f7669646572732f702f74726970732f74321805")
    static let secondTripJSON = #"{"name":"providers/p/trips/t2","tripStatus":"COMPLETE"}"#
    /// ``secondTrip`` compressed by Python's `gzip.compress(mtime=0)`.
    static let secondTripGzip: [UInt8] = hexBytes(
        "1f8b0800000000000203e3122928ca2fcb4c492d2ad62fd02f29ca2c28d62f319260050092d6690418000000")

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }
}
