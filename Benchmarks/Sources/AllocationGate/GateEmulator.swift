import FleetEngineEmulator
import Foundation

/// The emulator the networked operations call, run by the gate's own executable in a second
/// process (`AllocationGate --serve-emulator`), so that the count of the gate's process is the
/// client's alone and not the server's too.
enum GateEmulator {
    /// The provider of the one trip served.
    static let providerID = "allocation-gate"
    /// The one trip served: the typical trip, its vehicle moving (``DriftingTripMotion``).
    static let tripName = "providers/allocation-gate/trips/drifting-typical-trip"
    /// The line the emulator process writes first, before its port.
    static let portLinePrefix = "listening on port "

    /// Serves on 127.0.0.1, port 0, writes ``portLinePrefix`` and the port to standard output,
    /// and ends the process when its standard input closes (the gate is done, or died).
    static func serve() async throws {
        var trip = try GateFixtures.load().decodedTypicalTrip()
        trip.currentRouteSegmentVersion = nil
        trip.remainingWaypointsVersion = nil
        trip.remainingWaypointsRouteVersion = nil
        trip.currentRouteSegmentTrafficVersion = nil
        let emulator = try FleetEngineEmulator(configuration: EmulatorConfiguration(accessPolicy: .noAuth))
        try emulator.addMovingTrip(named: tripName, motion: DriftingTripMotion(start: trip))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await emulator.run() }
            let port = try await emulator.listeningPort()
            FileHandle.standardOutput.write(Data((portLinePrefix + "\(port)\n").utf8))
            // A thread of its own, not a task: reading standard input blocks, and the emulator's
            // handlers need the cooperative pool's threads.
            Thread.detachNewThread {
                _ = FileHandle.standardInput.readDataToEndOfFile()
                exit(0)
            }
            try await group.waitForAll()
        }
    }
}
