import FleetEngineClient
import FleetEngineTestSupport
import Foundation
import NIOPosix
import Testing

/// The Python grpcio TripService server of `Fixtures/grpcio_trip_server.py`, built on Google's
/// published `google-maps-fleetengine` types: a gRPC stack that shares nothing with ours.
///
/// Started with the project's `.venv` Python (made by `Scripts/setup.sh`) when there is one. It
/// ends when its standard input closes, so it cannot outlive the test process.
final class GRPCIOServer: @unchecked Sendable {
    // @unchecked: the process and pipes are set up in init and only read afterwards.
    let port: Int
    let logURL: URL
    private let process: Process
    private let input: Pipe

    init() throws {
        let python = ProjectPython.command()
        let script = try Fixtures.fixtureURL("grpcio_trip_server.py")
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("grpcio-\(UUID().uuidString).jsonl")
        process = Process()
        process.executableURL = python.executable
        process.arguments =
            python.leadingArguments + ["-u", script.path, "--port", "0", "--log", logURL.path, "--max-seconds", "300"]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is `listening on 127.0.0.1:PORT`.
        var line: [UInt8] = []
        let handle = output.fileHandleForReading
        while line.last != UInt8(ascii: "\n") {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { break }
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on "), let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...])
        else {
            process.terminate()
            throw ServerFailure(message: "the grpcio server did not start; it printed \"\(text)\"")
        }
        self.port = port
    }

    /// Stops the server by closing its standard input, and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: logURL)
    }

    /// The calls the server logged, one JSON object each.
    func loggedCalls() throws -> [[String: Any]] {
        let text = try String(contentsOf: logURL, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    struct ServerFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Runs `body` with the grpcio server and a plaintext client of ours connected to it.
func withGRPCIOServerAndClient<Result: Sendable>(
    configure: @Sendable (inout ClientConfiguration) -> Void = { _ in },
    tokenProvider: any TokenProvider = StaticTokenProvider("test-token-for-the-grpcio-server"),
    _ body: @Sendable (GRPCIOServer, FleetEngineClient) async throws -> Result
) async throws -> Result {
    // Starting and stopping the process block (reading its first line, waiting for its exit):
    // that happens on NIO's thread pool, never on the concurrency pool other tests run on.
    let server = try await NIOThreadPool.singleton.runIfActive { try GRPCIOServer() }
    do {
        var configuration = LoopbackClient.configuration(port: server.port)
        configure(&configuration)
        let result = try await withFleetEngineClient(configuration: configuration, tokenProvider: tokenProvider) {
            client in
            try await body(server, client)
        }
        try await NIOThreadPool.singleton.runIfActive { server.stop() }
        return result
    } catch {
        try? await NIOThreadPool.singleton.runIfActive { server.stop() }
        throw error
    }
}
