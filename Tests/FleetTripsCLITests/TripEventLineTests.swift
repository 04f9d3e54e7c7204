import FleetEngineCodec
import Testing
import TripTracking

@testable import FleetTripsCLI

@Suite("Trip event lines for people: counts in words, traffic by kind")
struct TripEventLineTests {
    private static func human(_ event: TripEvent) -> String {
        String(decoding: TripEventLine(trip: "providers/p/trips/t", event: event).human(), as: UTF8.self)
    }

    private static func traffic(_ speeds: [SpeedReadingInterval.Speed]) -> ConsumableTrafficPolyline {
        var traffic = ConsumableTrafficPolyline()
        traffic.speedReadingInterval = speeds.map { speed in
            var interval = SpeedReadingInterval()
            interval.speed = speed
            return interval
        }
        return traffic
    }

    @Test("traffic lines count slow stretches and jams apart, and leave normal-speed stretches out")
    func traffic() {
        #expect(
            Self.human(.activeRouteTraffic(Self.traffic([.normal, .slow, .normal])))
                == "t  traffic on the active route: 1 slow stretch\n")
        #expect(
            Self.human(.activeRouteTraffic(Self.traffic([.slow, .trafficJam, .slow, .trafficJam, .trafficJam])))
                == "t  traffic on the active route: 2 slow stretches, 3 jams\n")
        #expect(
            Self.human(.activeRouteTraffic(Self.traffic([.trafficJam]))) == "t  traffic on the active route: 1 jam\n")
        #expect(
            Self.human(.activeRouteTraffic(Self.traffic([.normal])))
                == "t  traffic on the active route: no slow stretches or jams\n")
        #expect(Self.human(.activeRouteTraffic(nil)) == "t  traffic on the active route: unknown\n")
    }

    @Test("one of a thing is singular, none and several plural")
    func counts() {
        let point = LatLng(latitude: 1, longitude: 2)
        #expect(Self.human(.activeRoute([point])) == "t  active route of 1 point\n")
        #expect(Self.human(.activeRoute(nil)) == "t  active route of 0 points\n")
        #expect(Self.human(.remainingWaypoints([TripWaypoint()])) == "t  1 waypoint remaining\n")
        #expect(Self.human(.remainingWaypoints([TripWaypoint(), TripWaypoint()])) == "t  2 waypoints remaining\n")
        #expect(Self.human(.intermediateDestinations([TerminalLocation()])) == "t  1 intermediate destination\n")
        let line = ProgressEventLine(trip: "providers/p/trips/t", event: .routeChanged([point])).human()
        #expect(String(decoding: line, as: UTF8.self) == "t  new route of 1 point\n")
    }

    @Test("a trip status the schema does not name is a number in JSON, as proto3 JSON writes the trip's own")
    func unnamedTripStatus() throws {
        var trip = Trip()
        trip.tripStatus = TripStatus(rawValue: 42)
        let status = try TripEventLine(trip: "providers/p/trips/t", event: .tripStatus(trip.tripStatus)).json()
        #expect(
            String(decoding: status, as: UTF8.self)
                == #"{"trip":"providers/p/trips/t","event":"tripStatus","tripStatus":42}"# + "\n")
        #expect(String(decoding: try trip.jsonUTF8Bytes(), as: UTF8.self) == #"{"tripStatus":42}"#)
        #expect(Self.human(.tripStatus(trip.tripStatus)) == "t  status 42\n")
    }
}
