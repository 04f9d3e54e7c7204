import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import Foundation
import Testing

/// Runs `body` with an emulator on 127.0.0.1 (port 0) and a client of ours connected to it in
/// plaintext.
func withEmulatorAndClient<Result: Sendable>(
    _ emulatorConfiguration: EmulatorConfiguration = EmulatorConfiguration(accessPolicy: .noAuth),
    tokenProvider: any TokenProvider = NoTokenProvider(),
    configure: @Sendable (inout ClientConfiguration) -> Void = { _ in },
    _ body: @Sendable (FleetEngineEmulator, FleetEngineClient) async throws -> Result
) async throws -> Result {
    try await withFleetEngineEmulator(emulatorConfiguration) { emulator in
        let port = try await emulator.listeningPort()
        var configuration = Fixtures.configuration(port: port)
        configure(&configuration)
        return try await withFleetEngineClient(configuration: configuration, tokenProvider: tokenProvider) { client in
            try await body(emulator, client)
        }
    }
}

enum Fixtures {
    static let provider = "test-project"

    /// The deadline of calls in tests that are not about deadlines. The whole suite runs at once on
    /// two cores, and each step of a call waits its turn behind a thousand other tests' work: on a
    /// loaded machine a call that takes a millisecond alone has taken over 15 s (the client's
    /// default deadline). Long enough that no such call misses it; short enough that a hang ends.
    static let callDeadline: Duration = .seconds(300)

    /// ``callDeadline`` from now: a deadline made at each use, as a test may start long after another.
    static var farDeadline: ContinuousClock.Instant { .now + callDeadline }

    /// A plaintext configuration for a server on 127.0.0.1 at `port`, with ``callDeadline``.
    static func configuration(port: Int) -> ClientConfiguration {
        var configuration = ClientConfiguration.plaintext(port: port)
        configuration.defaultDeadline = callDeadline
        return configuration
    }

    static func name(_ tripID: String) -> String { "providers/\(provider)/trips/\(tripID)" }

    /// The name ReportBillableTrip takes for trip `tripID`.
    static func billableName(_ tripID: String) -> String { "providers/\(provider)/billableTrips/\(tripID)" }

    static func terminal(_ latitude: Double, _ longitude: Double) -> TerminalLocation {
        var point = LatLng()
        point.latitude = latitude
        point.longitude = longitude
        var location = TerminalLocation()
        location.point = point
        return location
    }

    static func trip(vehicleID: String = "") -> Trip {
        var trip = Trip()
        trip.tripType = .exclusive
        trip.pickupPoint = terminal(37.4220, -122.0841)
        trip.dropoffPoint = terminal(37.4275, -122.1697)
        trip.numberOfPassengers = 2
        trip.vehicleID = vehicleID
        return trip
    }

    /// A trip with only its name set, as a scripted server answers.
    static func trip(named name: String) -> Trip {
        var trip = Trip()
        trip.name = name
        return trip
    }

    static func create(_ tripID: String, vehicleID: String = "") -> CreateTripRequest {
        var request = CreateTripRequest()
        request.parent = "providers/\(provider)"
        request.tripID = tripID
        request.trip = trip(vehicleID: vehicleID)
        return request
    }

    static func fixtureURL(_ path: String) throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/" + path, withExtension: nil))
    }

    static func fixtureText(_ path: String) throws -> String {
        try String(contentsOf: fixtureURL(path), encoding: .utf8)
    }
}

/// The error `body` throws, or nil when it does not throw. An error of any other type than
/// ``FleetEngineError`` is a test failure: every failure of the client is typed.
func fleetEngineError(
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> FleetEngineError? {
    do {
        try await body()
        return nil
    } catch let error as FleetEngineError {
        return error
    } catch {
        Issue.record("not a FleetEngineError: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
