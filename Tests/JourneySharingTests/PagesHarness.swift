import FleetEngineClient
import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import NIOCore
import Testing
import TripTracking

@testable import JourneySharing

/// An emulator on a manual clock serving trips that move by the second, our client on loopback, a
/// trip service whose models refresh only when a test asks (an hour's interval), and pages of it.
struct PagesHarness: Sendable {
    static let provider = "pages-tests"
    static let start = Timestamp(seconds: 1_700_000_000, nanos: 0)

    let clock: ManualTimeSource
    let emulator: FleetEngineEmulator
    let service: TripService
    let pages: TripPages

    /// Adds a trip that moves north by 0.001° every second and is `final` from second `endsAt` on.
    func addMovingTrip(_ id: String, endsAt: Int = .max, final: TripStatus = .complete) throws {
        try emulator.addMovingTrip(
            named: "providers/\(Self.provider)/trips/\(id)", motion: NorthboundMotion(endsAt: endsAt, final: final))
    }

    /// Moves the emulator's clock a second on and refreshes `id`'s model now.
    func step(_ id: String) async {
        clock.advance(by: .seconds(1))
        await service.tripModel(for: id).refresh()
    }

    func session(_ id: String) -> TripSession { pages.directory.session(for: id) }
}

/// A trip going north along a meridian, one thousandth of a degree a second, with its route ahead.
struct NorthboundMotion: TripMotion {
    var endsAt: Int
    var final: TripStatus

    func trip(at elapsed: Duration) -> Trip {
        let second = Int(elapsed.components.seconds)
        var trip = Trip()
        trip.tripType = .exclusive
        trip.tripStatus = second >= endsAt ? final : .enrouteToDropoff
        var location = VehicleLocation()
        location.location = LatLng(latitude: 52.5 + Double(second) / 1000, longitude: 13.4)
        location.heading = 0
        trip.lastLocation = location
        trip.route = (second..<second + 5).map { LatLng(latitude: 52.5 + Double($0) / 1000, longitude: 13.4) }
        var dropoff = TerminalLocation()
        dropoff.point = LatLng(latitude: 52.6, longitude: 13.4)
        trip.dropoffPoint = dropoff
        return trip
    }

    func snapshotInstant(at elapsed: Duration) -> Duration { .seconds(elapsed.components.seconds) }
}

/// Runs `body` with pages over an emulator; `options` for the pages.
func withPages<Result: Sendable>(
    options: TripPagesOptions = TripPagesOptions(),
    now: @escaping @Sendable () -> Date = { Date() },
    _ body: @Sendable (PagesHarness) async throws -> Result
) async throws -> Result {
    let clock = ManualTimeSource(start: PagesHarness.start)
    return try await withEmulatorAndClient(EmulatorConfiguration(accessPolicy: .noAuth), time: clock) {
        emulator, client in
        let service = TripService(
            client: client, providerID: PagesHarness.provider,
            defaultOptions: TripModelOptions(autoRefreshTimeInterval: .seconds(3600)), requestBudget: .unlimited)
        let pages = try TripPages(service: service, options: options, now: now)
        let harness = PagesHarness(clock: clock, emulator: emulator, service: service, pages: pages)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await service.run() }
            defer { service.beginGracefulShutdown() }
            return try await body(harness)
        }
    }
}

/// One state message of a trip's stream, parsed.
struct StateEvent {
    var seq: Int
    var json: [String: Any]

    /// The message `buffer` holds: `event: state`, its `id:`, and the JSON of its `data:` line.
    init(_ buffer: ByteBuffer) throws {
        let text = String(buffer: buffer)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 5 && lines[0] == "event: state" && lines[3].isEmpty && lines[4].isEmpty)
        let data = try #require(lines[2].hasPrefix("data: ") ? lines[2].dropFirst(6) : nil)
        json = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        seq = try #require(json["seq"] as? Int)
        #expect(lines[1] == "id: \(seq)")
    }

    var status: String? { json["status"] as? String }
    var ended: Bool { json["ended"] as? Bool ?? false }
    var vehicleLatitude: Double? { (json["vehicle"] as? [String: Any])?["lat"] as? Double }
}
