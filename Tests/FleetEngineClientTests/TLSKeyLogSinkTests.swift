import FleetEngineEmulator
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import NIOCore
import NIOSSL
import Synchronization
import Testing

@testable import FleetEngineClient

@Suite("TLS key logs: the secrets of our TLS connections to the emulator, as NSS key log lines")
struct TLSKeyLogSinkTests {
    /// An emulator serving TLS with the test certificate (SANs `localhost` and 127.0.0.1).
    static func tlsEmulator() throws -> EmulatorConfiguration {
        var emulator = EmulatorConfiguration(accessPolicy: .noAuth)
        emulator.tls = (
            try Fixtures.fixtureText("tls/test-server-cert.pem"), try Fixtures.fixtureText("tls/test-server-key.pem")
        )
        return emulator
    }

    static func testCertificate() throws -> NIOSSLCertificate {
        try NIOSSLCertificate(bytes: Array(try Fixtures.fixtureText("tls/test-server-cert.pem").utf8), format: .pem)
    }

    /// A client of the emulator at `port` over `transportSecurity`, with `keyLog`.
    static func configuration(
        port: Int, transportSecurity: ClientConfiguration.TransportSecurity, keyLog: TLSKeyLogSink
    ) -> ClientConfiguration {
        var configuration = ClientConfiguration(
            endpoint: .init(host: "127.0.0.1", port: port), transportSecurity: transportSecurity)
        configuration.defaultDeadline = LoopbackClient.callDeadline
        configuration.connectTimeout = LoopbackClient.callDeadline
        configuration.tlsKeyLog = keyLog
        return configuration
    }

    /// Makes one call, so that one connection is made and its handshake done.
    static func call(_ configuration: ClientConfiguration, tripID: String) async throws {
        try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) { client in
            _ = try await client.createTrip(Fixtures.create(tripID))
        }
    }

    /// A path in the temporary folder that does not exist yet.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    }

    static func mode(ofFileAt path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test("a TLS 1.3 connection hands its five secrets to the key log, one line each, with one client random")
    func tls13Lines() async throws {
        let received = Mutex<[String]>([])
        try await withFleetEngineEmulator(try Self.tlsEmulator()) { emulator in
            let configuration = Self.configuration(
                port: try await emulator.listeningPort(),
                transportSecurity: .tls(
                    trustRoots: .certificates([try Self.testCertificate()]), serverHostname: "localhost"),
                keyLog: TLSKeyLogSink { line in received.withLock { $0.append(line) } })
            try await Self.call(configuration, tripID: "key-log-13")
        }
        let texts = received.withLock { $0 }
        let lines = texts.compactMap { KeyLogLine($0) }
        #expect(lines.count == texts.count, "\(texts.count - lines.count) lines are not NSS key log lines")
        #expect(lines.map(\.label).sorted() == KeyLogLine.tls13Labels)
        #expect(Set(lines.map(\.clientRandom)).count == 1)
        // One cipher suite, so one hash: every secret has its length (SHA-256's or SHA-384's).
        #expect(Set(lines.map(\.secret.count)).count == 1)
        #expect(Set(lines.map(\.secret)).count == lines.count)
    }

    @Test("a custom TLS 1.2 configuration: one CLIENT_RANDOM line in a new 0600 file, and its own callback too")
    func customConfigurationFile() async throws {
        let path = Self.temporaryPath("keylog-tls12")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let own = Mutex<[String]>([])
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try Self.testCertificate()])
        tls.maximumTLSVersion = .tlsv12
        tls.keyLogCallback = { buffer in own.withLock { $0.append(String(buffer: buffer)) } }
        let transportSecurity = ClientConfiguration.TransportSecurity.tls(tls, serverHostname: "localhost")
        try await withFleetEngineEmulator(try Self.tlsEmulator()) { emulator in
            let configuration = Self.configuration(
                port: try await emulator.listeningPort(), transportSecurity: transportSecurity,
                keyLog: try .file(atPath: path))
            try await Self.call(configuration, tripID: "key-log-12")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = try #require(KeyLogLine.lines(of: text))
        #expect(lines.map(\.label) == ["CLIENT_RANDOM"])
        // TLS 1.2's master secret is 48 bytes whatever the cipher suite.
        #expect(lines.map(\.secret.count) == [96])
        #expect(own.withLock { $0 } == [text])
        #expect(try Self.mode(ofFileAt: path) == 0o600)
    }

    @Test("a key log file is appended to: what it held stays, and each connection adds its lines after it")
    func fileAppends() async throws {
        let path = Self.temporaryPath("keylog-append")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("# kept\n".utf8).write(to: URL(fileURLWithPath: path))
        try await withFleetEngineEmulator(try Self.tlsEmulator()) { emulator in
            let port = try await emulator.listeningPort()
            let transportSecurity = ClientConfiguration.TransportSecurity.tls(
                trustRoots: .certificates([try Self.testCertificate()]), serverHostname: "localhost")
            // Two key logs on the same file, as two processes with one SSLKEYLOGFILE.
            for tripID in ["append-1", "append-2"] {
                let configuration = Self.configuration(
                    port: port, transportSecurity: transportSecurity, keyLog: try .file(atPath: path))
                try await Self.call(configuration, tripID: tripID)
            }
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# kept\n"))
        let lines = try #require(KeyLogLine.lines(of: String(text.dropFirst("# kept\n".count))))
        #expect(lines.count == 2 * KeyLogLine.tls13Labels.count)
        let firstRandom = try #require(lines.first?.clientRandom)
        #expect(lines.prefix(5).allSatisfy { $0.clientRandom == firstRandom })
        #expect(Set(lines.suffix(5).map(\.clientRandom)).count == 1)
        #expect(lines.suffix(5).allSatisfy { $0.clientRandom != firstRandom })
    }

    @Test("clients handshaking at once through one key log file write whole lines, none lost")
    func concurrentConnections() async throws {
        let path = Self.temporaryPath("keylog-concurrent")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let keyLog = try TLSKeyLogSink.file(atPath: path)
        let clients = 4
        try await withFleetEngineEmulator(try Self.tlsEmulator()) { emulator in
            let configuration = Self.configuration(
                port: try await emulator.listeningPort(),
                transportSecurity: .tls(
                    trustRoots: .certificates([try Self.testCertificate()]), serverHostname: "localhost"),
                keyLog: keyLog)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<clients {
                    group.addTask { try await Self.call(configuration, tripID: "concurrent-\(index)") }
                }
                try await group.waitForAll()
            }
        }
        let lines = try #require(KeyLogLine.lines(of: try String(contentsOfFile: path, encoding: .utf8)))
        let byConnection = Dictionary(grouping: lines, by: \.clientRandom)
        #expect(byConnection.count == clients)
        for (_, connectionLines) in byConnection {
            #expect(connectionLines.map(\.label).sorted() == KeyLogLine.tls13Labels)
        }
    }

    @Test("plaintext has no secrets: the key log receives nothing")
    func plaintextWritesNothing() async throws {
        let received = Mutex<[String]>([])
        try await withEmulatorAndClient(configure: { configuration in
            configuration.tlsKeyLog = TLSKeyLogSink { line in received.withLock { $0.append(line) } }
        }) { _, client in
            _ = try await client.createTrip(Fixtures.create("key-log-plaintext"))
        }
        #expect(received.withLock { $0 }.isEmpty)
    }

    @Test("a key log file that cannot be opened is INVALID_ARGUMENT naming the path and the reason")
    func unopenableFile() {
        let path = Self.temporaryPath("no-such-folder") + "/keys.log"
        do {
            _ = try TLSKeyLogSink.file(atPath: path)
            Issue.record("the key log file opened")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.origin == .local)
            #expect(
                error.message == "cannot open the TLS key log file '\(path)' for appending: No such file or directory")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
