import FleetEngineTestSupport
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("Shell commands (--token-command)")
struct ShellCommandTests {
    @Test(
        "cancelling a command stops the processes it started too, and the run ends signalled",
        .timeLimit(.minutes(10)))
    func cancellationStopsTheGroup() async throws {
        let pidFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleettrips-child-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let command = ShellCommand(
            commandLine: "sleep 600 & echo $! > \(pidFile).part; mv \(pidFile).part \(pidFile); wait")
        let running = Task { try await command.run() }
        defer { running.cancel() }
        // Waits for the shell to have started its child.
        var child: Int32?
        await waitUntil {
            guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8) else { return false }
            child = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            return true
        }
        let sleeper = try #require(child, "the shell never started its child")
        #expect(Self.isRunning(sleeper))
        running.cancel()
        #expect(
            await waitUntil { !Self.isRunning(sleeper) }, "the shell's child \(sleeper) outlived the cancelled command")
        let outcome = try await running.value
        #expect(outcome.termination == .signalled(SIGTERM))
    }

    /// Whether a process exists and has not ended (a zombie waiting to be reaped has ended).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return false }
        return !stat[end...].hasPrefix(") Z")
    }
}
