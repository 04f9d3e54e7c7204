import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips demo and signals")
struct DemoSignalTests {
    /// The built `fleettrips demo` at a speed at which its trip cannot end by itself during the
    /// test, stopped with SIGTERM once it has printed the trip's progress: the following ends, the
    /// emulator shuts down gracefully, and the demo exits 0 with nothing on standard error.
    @Test("SIGTERM ends fleettrips demo with status 0 and no error", .timeLimit(.minutes(10)))
    func sigtermEndsTheDemoCleanly() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleettrips-demo-\(UInt64.random(in: 0...UInt64.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executable = try ServeProcess.executablePath()
        // Waits (bounded, two minutes on a busy machine) for the first line of the trip's progress,
        // then signals the demo and reports how it ended.
        let script = """
            "\(executable)" demo --speed 1 > "\(folder)/out" 2> "\(folder)/err" & demo=$!
            i=0
            until grep -q remaining "\(folder)/out" || [ $i -ge 1200 ]; do sleep 0.1; i=$((i+1)); done
            kill -TERM $demo
            wait $demo
            echo "status $?"
            """
        let outcome = try await ShellCommand(commandLine: script).run()
        let output = try String(contentsOfFile: folder + "/out", encoding: .utf8)
        let errorOutput = try String(contentsOfFile: folder + "/err", encoding: .utf8)
        #expect(output.contains("remaining"), "the demo never printed its trip's progress: \(output)")
        #expect(!output.contains("COMPLETE"), "the trip ended before the signal: \(output)")
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self) == "status 0\n")
        #expect(errorOutput == "")
    }
}
