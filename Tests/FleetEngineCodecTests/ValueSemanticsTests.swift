import Testing

@testable import FleetEngineCodec

/// Large messages keep their fields in shared copy-on-write storage; they must still behave as values.
@Suite("Messages are values, whether stored inline or in shared storage")
struct ValueSemanticsTests {
    @Test("changing a copy leaves the original as it was")
    func copiesAreIndependent() {
        var original = Trip()
        original.name = "providers/p/trips/a"
        original.route = [LatLng()]
        var copy = original
        copy.name = "providers/p/trips/b"
        copy.route.append(LatLng())
        copy.lastLocation = VehicleLocation()
        copy.lastLocation?.heading = 90
        #expect(original.name == "providers/p/trips/a")
        #expect(original.route.count == 1)
        #expect(original.lastLocation == nil)
        #expect(copy.route.count == 2)
        #expect(copy.lastLocation?.heading == 90)
    }

    @Test("a new message shares no state with another new message")
    func emptyStorageIsNeverChanged() {
        var first = Trip()
        first.vehicleID = "v1"
        let second = Trip()
        #expect(second.vehicleID == "")
        #expect(Trip().vehicleID == "")
    }

    @Test("equal fields make equal messages with equal hashes, however they were built")
    func equalityAndHashing() throws {
        var built = Trip()
        built.name = "providers/p/trips/a"
        built.tripStatus = .complete
        let decoded = try Trip(serializedBytes: built.serializedBytes())
        #expect(decoded == built)
        #expect(decoded.hashValue == built.hashValue)
        var different = decoded
        different.tripStatus = .canceled
        #expect(different != built)
        #expect(Set([built, decoded, different]).count == 2)
    }

    @Test("nested mutation through optional chaining and subscripts changes only that message")
    func nestedMutation() {
        var trip = Trip()
        trip.remainingWaypoints = [TripWaypoint(), TripWaypoint()]
        let before = trip
        trip.remainingWaypoints[1].tripID = "t2"
        trip.remainingWaypoints[1].location = TerminalLocation()
        trip.remainingWaypoints[1].location?.point = LatLng()
        trip.remainingWaypoints[1].location?.point?.latitude = 48.1
        #expect(before.remainingWaypoints[1].tripID == "")
        #expect(trip.remainingWaypoints[1].location?.point?.latitude == 48.1)
        #expect(trip.remainingWaypoints[0] == TripWaypoint())
    }

    @Test("a message is shown with its fields when printed")
    func debugDescription() {
        var trip = Trip()
        trip.name = "providers/p/trips/a"
        #expect(String(reflecting: trip).hasPrefix("Trip(name: \"providers/p/trips/a\""))
    }
}
