import FleetEngineCodec
import FleetEngineStatus
import Foundation
import NIOCore
import Testing

@testable import JourneySharing

@Suite("trip state messages")
struct TripStateMessageTests {
    /// A trip on its way to the pickup with a route, traffic along its own path, two waypoints,
    /// and a vehicle.
    static func trip() -> Trip {
        var trip = Trip()
        trip.name = "providers/p/trips/t-1"
        trip.tripStatus = .enrouteToPickup
        var location = VehicleLocation()
        location.location = LatLng(latitude: 48.85, longitude: 2.35)
        location.heading = 270
        location.updateTime = Timestamp(seconds: 1_700_000_000, nanos: 250_000_000)
        trip.lastLocation = location
        trip.route = [
            LatLng(latitude: 48.85, longitude: 2.35), LatLng(latitude: .nan, longitude: 2.36),
            LatLng(latitude: 48.86, longitude: 2.37),
        ]
        var traffic = ConsumableTrafficPolyline()
        var slow = SpeedReadingInterval()
        slow.startPolylinePointIndex = 0
        slow.endPolylinePointIndex = 1
        slow.speed = .slow
        traffic.speedReadingInterval = [slow]
        traffic.encodedPathToWaypoint = EncodedPolyline.encode([
            LatLng(latitude: 48.85, longitude: 2.35), LatLng(latitude: 48.86, longitude: 2.37),
        ])
        trip.currentRouteSegmentTraffic = traffic
        var pickup = TerminalLocation()
        pickup.point = LatLng(latitude: 48.86, longitude: 2.37)
        trip.pickupPoint = pickup
        var dropoff = TerminalLocation()
        dropoff.point = LatLng(latitude: 48.87, longitude: 2.30)
        trip.dropoffPoint = dropoff
        var first = TripWaypoint()
        first.location = pickup
        first.tripID = "t-1"
        first.waypointType = .pickupWaypointType
        first.eta = Timestamp(seconds: 1_700_000_300, nanos: 0)
        first.distanceMeters = 1_800
        var second = TripWaypoint()
        second.location = dropoff
        second.tripID = "t-1"
        second.waypointType = .dropOffWaypointType
        second.pathToWaypoint = [LatLng(latitude: 48.86, longitude: 2.37), LatLng(latitude: 48.87, longitude: 2.30)]
        second.eta = Timestamp(seconds: 1_700_000_900, nanos: 0)
        trip.remainingWaypoints = [first, second]
        trip.etaToFirstWaypoint = Timestamp(seconds: 1_700_000_290, nanos: 0)
        var remaining = ProtobufDuration()
        remaining.seconds = 290
        trip.remainingTimeToFirstWaypoint = remaining
        trip.remainingDistanceMeters = 1_750
        return trip
    }

    @Test("a state message is one event line, an id, and one data line holding every key of the page's state")
    func messageHoldsTheWholeState() throws {
        let message = TripStateMessage(
            tripName: "providers/p/trips/t-1", seq: 7, sentAt: 1_700_000_001_000, updatedAt: 1_700_000_000_900,
            trip: Self.trip(), ended: false, error: nil)
        let state = try StateEvent(ByteBuffer(bytes: message.eventBytes()))
        #expect(state.seq == 7)
        let json = state.json
        #expect(json["trip"] as? String == "providers/p/trips/t-1")
        #expect(json["tripId"] as? String == "t-1")
        #expect(json["sentAt"] as? Int == 1_700_000_001_000)
        #expect(json["updatedAt"] as? Int == 1_700_000_000_900)
        #expect(json["status"] as? String == "ENROUTE_TO_PICKUP")
        #expect(json["ended"] as? Bool == false)
        let vehicle = try #require(json["vehicle"] as? [String: Any])
        #expect(vehicle["lat"] as? Double == 48.85)
        #expect(vehicle["lng"] as? Double == 2.35)
        #expect(vehicle["heading"] as? Int == 270)
        #expect(vehicle["time"] as? Int == 1_700_000_000_250)
        // The point that is not a number is left out.
        #expect(json["route"] as? [[Double]] == [[48.85, 2.35], [48.86, 2.37]])
        let traffic = try #require(json["traffic"] as? [[String: Any]])
        #expect(traffic.count == 1)
        #expect(traffic.first?["from"] as? Int == 0)
        #expect(traffic.first?["to"] as? Int == 1)
        #expect(traffic.first?["speed"] as? String == "SLOW")
        #expect(json["trafficPath"] as? [[Double]] == [[48.85, 2.35], [48.86, 2.37]])
        let waypoints = try #require(json["waypoints"] as? [[String: Any]])
        #expect(waypoints.map { $0["type"] as? String } == ["PICKUP", "DROP_OFF"])
        #expect(waypoints.map { $0["eta"] as? Int } == [1_700_000_300_000, 1_700_000_900_000])
        #expect(waypoints.first?["distanceMeters"] as? Int == 1_800)
        #expect(waypoints.last?["distanceMeters"] is NSNull)
        #expect(waypoints.first?["path"] as? [[Double]] == [])
        #expect(waypoints.last?["path"] as? [[Double]] == [[48.86, 2.37], [48.87, 2.30]])
        #expect(json["pickup"] as? [String: Double] == ["lat": 48.86, "lng": 2.37])
        #expect(json["dropoff"] as? [String: Double] == ["lat": 48.87, "lng": 2.30])
        // The pickup is the first stop: its ETA is eta_to_first_waypoint.
        #expect(json["pickupEta"] as? Int == 1_700_000_290_000)
        #expect(json["dropoffEta"] as? Int == 1_700_000_900_000)
        #expect(json["remainingSeconds"] as? Int == 290)
        #expect(json["remainingMeters"] as? Int == 1_750)
        // Slow over half the path: (0.5 × 1) / 1 = 50 % is heavy.
        #expect(json["delay"] as? String == "heavy")
        #expect(json["error"] is NSNull)
        #expect(json.count == 20)
    }

    @Test("before any trip every trip key is null or empty, and the error is given with its code's name")
    func messageWithoutTrip() throws {
        let error = FleetEngineError(code: .permissionDenied, message: "no\nentry </script>")
        let message = TripStateMessage(
            tripName: "providers/p/trips/x", seq: 1, sentAt: 5, updatedAt: nil, trip: nil, ended: false, error: error)
        let bytes = message.eventBytes()
        // One data line, whatever the text holds.
        #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == 4)
        let json = try StateEvent(ByteBuffer(bytes: bytes)).json
        for key in [
            "updatedAt", "status", "vehicle", "pickup", "dropoff", "pickupEta", "dropoffEta", "remainingSeconds",
            "remainingMeters",
        ] {
            #expect(json[key] is NSNull, "\(key)")
        }
        for key in ["route", "traffic", "trafficPath", "waypoints"] {
            #expect((json[key] as? [Any])?.isEmpty == true, "\(key)")
        }
        #expect(json["delay"] as? String == "noData")
        #expect(json["error"] as? [String: String] == ["code": "PERMISSION_DENIED", "message": "no\nentry </script>"])
    }
}
