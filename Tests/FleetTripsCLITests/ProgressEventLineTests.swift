import ArgumentParser
import FleetEngineCodec
import Foundation
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

    @Test("follow --progress's help and the README promise no speeding lines, which follow has no speed limits for")
    func noSpeedingPromised() throws {
        // TripProgressMonitor reports speeding only with a SpeedLimitSource, and follow has none.
        let help = FollowCommand.helpMessage(columns: 10_000)
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"),
            encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Following trips").last)
        for text in [help, section] {
            #expect(!text.contains("speeding,") && !text.contains("`speeding` (`\"percentAboveLimit\"`)"))
            #expect(text.contains("no speeding lines"))
        }
    }
}
