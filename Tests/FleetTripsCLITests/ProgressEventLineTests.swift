import FleetEngineCodec
import Testing
import TripTracking

@testable import FleetTripsCLI

@Suite("Progress lines for people, from numbers no integer holds")
struct ProgressEventLineTests {
    @Test("a location whose speed the server sent as NaN prints a line instead of trapping")
    func nanSpeed() {
        let location = RoadSnappedLocation(coordinate: LatLng(latitude: 51.5, longitude: -0.12), speed: .nan)
        let line = ProgressEventLine(trip: "providers/p/trips/t", event: .locationUpdated(location)).human()
        #expect(!line.isEmpty)
    }
}
