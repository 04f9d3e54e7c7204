import FleetEngineTestSupport
import Foundation
import Testing

/// Runs `Fixtures/check_minted_tokens.py`: Google's google-auth verifies tokens and says what it
/// decoded.
///
/// Runs `ProjectPython`: the project's `.venv` (made by `Scripts/setup.sh`, with google-auth and
/// cryptography) when there is one, else `python3` from the PATH.
enum GoogleAuthChecker {
    /// What google-auth made of one token: its header and claims, or why it refused it.
    struct Result: Decodable, Sendable {
        struct Header: Decodable, Sendable {
            var alg: String
            var typ: String?
            var kid: String?
        }

        struct Authorization: Decodable, Sendable, Equatable {
            var tripid: String?
            var vehicleid: String?
        }

        struct Claims: Decodable, Sendable {
            var iss: String
            var sub: String
            var aud: String
            var iat: Int64
            var exp: Int64
            var authorization: Authorization
        }

        var header: Header?
        var claims: Claims?
        var error: String?
    }

    private struct Request: Encodable {
        var publicKeyPEM: String
        var keyId: String
        var audience: String
        var tokens: [String]
    }

    private struct Response: Decodable {
        var results: [Result]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// google-auth's verdict on each of `tokens`, checked with `publicKeyPEM` as the key `keyID`
    /// names and `audience`.
    static func check(
        _ tokens: [String], publicKeyPEM: String, keyID: String, audience: String
    ) throws -> [Result] {
        let python = ProjectPython.command()
        let script = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/check_minted_tokens.py"))
        let process = Process()
        process.executableURL = python.executable
        process.arguments = python.leadingArguments + [script.path]
        let input = Pipe()
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorOutput
        try process.run()
        let request = Request(publicKeyPEM: publicKeyPEM, keyId: keyID, audience: audience, tokens: tokens)
        try input.fileHandleForWriting.write(contentsOf: try JSONEncoder().encode(request))
        try input.fileHandleForWriting.close()
        // Read to the end before waiting, so that a full pipe cannot stall the script.
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "check_minted_tokens.py exited with \(process.terminationStatus): "
                    + String(decoding: complaint, as: UTF8.self))
        }
        return try JSONDecoder().decode(Response.self, from: printed).results
    }
}
