import ArgumentParser
import FleetEngineClient
import FleetEngineEmulator
import FleetEngineStatus
import FleetTripsInput
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("Exit statuses: 0, 1 for the tool's own failures, 64 for usage, 64 + the gRPC code for a failed call")
struct ExitStatusTests {
    @Test("a failed call exits with 64 + its code, as grpcurl does: 65 CANCELLED to 80 UNAUTHENTICATED")
    func statusCodeOffset() {
        #expect(
            StatusCode.allKnown.dropFirst().map { CallExitStatus.failure(code: $0) } == Array(Int32(65)...80))
        #expect(CallExitStatus.failure(code: .cancelled) == 65)
        #expect(CallExitStatus.failure(code: .notFound) == 69)
        #expect(CallExitStatus.failure(code: .unauthenticated) == 80)
    }

    @Test(
        "a code gRPC does not define counts as UNKNOWN, and so does OK, so that 64 is only ever a usage error",
        arguments: [0, 17, 99, 200, -1, Int(Int32.max)])
    func codesOutsideTheTable(rawValue: Int) {
        #expect(CallExitStatus.failure(code: StatusCode(rawValue: rawValue)) == 66)
    }

    @Test("64 is ArgumentParser's usage status, and no failed call exits with it")
    func usageStaysApart() {
        #expect(CallExitStatus.usage == 64)
        #expect(CommandRunner.report(for: ValidationError("bad")).exitCode == 64)
        let callStatuses = (-1...300).map { CallExitStatus.failure(code: StatusCode(rawValue: $0)) }
        #expect(!callStatuses.contains(64))
        #expect(!callStatuses.contains(1))
        #expect(callStatuses.allSatisfy { (65...80).contains($0) })
    }

    @Test("the tool's own failures exit 1; what is reported as a status exits with its code")
    func failureReporting() {
        #expect(CallExitStatus.failure(reporting: FleetTripsError(.unwritableOutput)) == 1)
        #expect(CallExitStatus.failure(reporting: FleetTripsError(.invalidMessage)) == 1)
        #expect(
            CallExitStatus.failure(
                reporting: FleetEngineError(code: .permissionDenied, message: "no", origin: .status)) == 71)
        #expect(CallExitStatus.failure(reporting: CancellationError()) == 65)
    }

    @Test(
        "a call the emulator fails with each code exits with 64 + that code, and --json reports the same code",
        arguments: StatusCode.allKnown.dropFirst())
    func injectedFailures(code: StatusCode) async throws {
        // ReportBillableTrip is never retried, so the one injected failure is how the call ends.
        var configuration = EmulatorConfiguration(accessPolicy: .noAuth)
        configuration.faults.failEvery = 1
        configuration.faults.failCode = code
        try await withFleetEngineEmulator(configuration) { emulator in
            let result = try await ClientCommandTests.call(
                [
                    "report-billable", ReportBillableCommandTests.billableName("t-1"), "--country-code", "US",
                    "--platform", "SERVER", "--json",
                ] + ClientCommandTests.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 64 + Int32(code.rawValue))
            #expect(result.output == "")
            let object = try ClientCommandTests.errorObject(result.errorOutput)
            #expect(object["code"] as? Int == code.rawValue)
        }
    }

    @Test("a usage error is refused before any call, with 64")
    func usageError() {
        let rejection = ClientCommandTests.rejection(["get", "providers/p/trips/t", "--deadline", "0"])
        #expect(rejection.exitCode == 64)
    }

    @Test(
        "every client command's help has the table of exit statuses",
        arguments: ["get", "search", "create", "update", "delete", "report-billable", "follow"])
    func helpTable(command: String) throws {
        let type = try #require(FleetTrips.configuration.subcommands.first { $0.configuration.commandName == command })
        let help = type.helpMessage(columns: 10_000)
        #expect(help.contains("Exit status: 0 when the call succeeded; 64 for a usage error"), "\(command)")
        for code in StatusCode.allKnown.dropFirst() {
            #expect(help.contains("\(64 + code.rawValue)  \(code.name ?? "")"), "\(command) \(code)")
        }
    }

    @Test("the README's table of exit statuses has every code the tool exits with")
    func readmeTable() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"),
            encoding: .utf8)
        for (status, meaning) in [(0, "the call succeeded"), (1, "a failure of the tool's own"), (64, "usage error")] {
            #expect(readme.contains("| \(status) | \(meaning)"), "\(status)")
        }
        for code in StatusCode.allKnown.dropFirst() {
            #expect(readme.contains("| \(CallExitStatus.failure(code: code)) | \(code.name ?? "")"), "\(code)")
        }
    }

    @Test("fleettrips --version prints the package's version, the client's, and exits 0")
    func version() {
        #expect(FleetTrips.version == FleetEngineClient.version)
        do {
            _ = try CommandRunner.parse(["--version"])
            Issue.record("--version parsed as a command")
        } catch {
            let report = CommandRunner.report(for: error)
            #expect(report.message == FleetEngineClient.version)
            #expect(report.exitCode == 0)
        }
    }
}
