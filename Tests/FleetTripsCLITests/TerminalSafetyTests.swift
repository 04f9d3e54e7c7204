import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import FleetTripsInput
import Testing

@testable import FleetEngineCapture
@testable import FleetTripsCLI

/// Text from a server or a capture reaches standard error with its control characters escaped:
/// an escape sequence cannot clear the screen, a carriage return cannot hide the start of a line.
@Suite("Server and capture text on the terminal: control characters escaped")
struct TerminalSafetyTests {
    /// A message with the controls the tests are about: ESC [ 2 J (clear screen), CR, BEL, U+009B (CSI).
    static let hostile = "gone\u{1B}[2J\rOK\u{07}\u{9B}0m"
    static let escaped = "gone\\u{1B}[2J\\rOK\\u{07}\\u{9B}0m"

    /// Whether `text` holds a control character other than the line feeds between its lines.
    static func holdsControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("a failed call's text report escapes the server's message and details")
    func failureReport() throws {
        var info = ErrorInfo()
        info.reason = "R\u{9B}2J"
        let error = FleetEngineError(
            code: .notFound, message: Self.hostile, details: [.errorInfo(info)], origin: .status)
        let session = TripServiceSession(
            configuration: .plaintext(port: 1), tokenSource: .none, reportsJSON: false)
        let report = String(decoding: session.report(error), as: UTF8.self)
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "NOT_FOUND (5): \(Self.escaped)")
        #expect(lines.contains { $0.hasPrefix("  - google.rpc.ErrorInfo {\"reason\":\"R\\u{9B}2J\"") })
        #expect(!Self.holdsControls(report))
    }

    @Test("fleettrips status prints the message of a google.rpc.Status with its controls escaped")
    func statusCommand() throws {
        let bytes = SampleDetails.statusBytes(code: 14, message: Self.hostile, details: [])
        let text = try CommandRunner.status(["--details-bin", base64(bytes)])
        #expect(text.contains("\nmessage:      \(Self.escaped)\n"))
        #expect(!Self.holdsControls(text))
    }

    @Test("the tool's own error escapes what it quotes")
    func toolError() {
        let error = FleetTripsError(code: .unreadableInput, message: "cannot read \(Self.hostile)")
        #expect(error.description == "unreadable input: cannot read \(Self.escaped)")
        #expect(CommandRunner.report(for: error).message == "unreadable input: cannot read \(Self.escaped)")
    }

    @Test("a capture's note on standard error escapes the problem's message")
    func captureNotice() throws {
        let problem = CaptureRecord.problem(
            CaptureProblem(error: CaptureError(code: .tlsKeyMissing, message: "server \(Self.hostile) not decrypted")))
        let notice = try #require(CaptureCommand.tlsNotice(problem))
        #expect(
            String(decoding: notice, as: UTF8.self)
                == "note: server \(Self.escaped) not decrypted, with --keylog-file KEYS\n")
    }
}
