import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

enum Fixtures {
    static let provider = "test-project"

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
