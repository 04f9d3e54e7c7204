import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

/// Real TLS captures: tcpdump on loopback while Debian's curl (OpenSSL) posted gRPC calls over
/// HTTP/2 to `fleettrips serve --tls-cert` with `SSLKEYLOGFILE` set, one capture per TLS version and
/// suite (`Scripts/make-tls-capture-fixtures.py`). What each call sent, and what tshark decrypted
/// with the same key log, was written beside it in Google's `json_format`.
@Suite("TLS captures of curl with its key log: every call as curl sent it and tshark decrypted it")
struct TLSCaptureFixtureTests {
    static let captures = [
        "tls13-aes128gcm", "tls13-aes256gcm", "tls13-chacha20", "tls13-resumption", "tls12-ecdhe-rsa-aes128gcm",
        "tls12-ecdhe-rsa-aes256gcm", "tls12-ecdhe-rsa-chacha20", "tls12-ecdhe-ecdsa-aes128gcm", "tls12-resumption",
        "ours-tls13",
    ]

    static func keyLog(_ name: String) throws -> TLSKeyLog {
        try TLSKeyLog(parsing: try GRPCIOCaptureTests.fixture("TLS/\(name).keys"), source: "\(name).keys")
    }

    static func decode(_ bytes: [UInt8], keyLog: TLSKeyLog, chunkSize: Int) throws -> [CaptureRecord] {
        try GRPCIOCaptureTests.decode(bytes, chunkSize: chunkSize, options: CaptureOptions(tlsKeyLog: keyLog))
    }

    /// Checks the calls of `records` against those recorded beside `capture`.
    static func expectCalls(_ records: [CaptureRecord], as capture: String) throws {
        #expect(records.problems.isEmpty, "\(records.problems.map(\.error))")
        let expected = try GRPCIOCaptureTests.expectedCalls(for: "TLS/\(capture).pcap")
        let ends = records.callEnds
        #expect(ends.count == expected.count)
        #expect(!expected.isEmpty)
        for (end, call) in zip(ends, expected) {
            #expect(end.method == call.method)
            #expect(!end.methodInferred)
            let messages = records.messages.filter { $0.streamID == end.streamID && $0.connection == end.connection }
            let request = messages.first { $0.direction == .request }
            #expect(GRPCIOCaptureTests.same(request?.message, call.request), "\(call.method)")
            let response = messages.first { $0.direction == .response }
            if let code = call.code {
                #expect(end.status.code.name == code)
                #expect(response == nil)
            } else {
                #expect(end.status.code == .ok)
                #expect(GRPCIOCaptureTests.same(response?.message, call.response), "\(call.method)")
            }
        }
    }

    @Test(
        "with its key log, every call of each capture decrypts to what curl sent and got", arguments: captures,
        [1 << 20, 1_000, 7])
    func everyCall(capture: String, chunkSize: Int) throws {
        let bytes = try GRPCIOCaptureTests.fixture("TLS/\(capture).pcap")
        try Self.expectCalls(
            try Self.decode(bytes, keyLog: try Self.keyLog(capture), chunkSize: chunkSize), as: capture)
    }

    @Test("a pcapng with its secrets in a Decryption Secrets Block decrypts with no key log given")
    func decryptionSecretsBlock() throws {
        let bytes = try GRPCIOCaptureTests.fixture("TLS/tls13-dsb.pcapng")
        try Self.expectCalls(try Self.decode(bytes, keyLog: TLSKeyLog(), chunkSize: 4_096), as: "tls13-dsb")
    }

    @Test("without its key log: one TLS key missing problem per connection, no message made up", arguments: captures)
    func withoutKeys(capture: String) throws {
        let bytes = try GRPCIOCaptureTests.fixture("TLS/\(capture).pcap")
        let records = try Self.decode(bytes, keyLog: TLSKeyLog(), chunkSize: 1 << 20)
        #expect(records.messages.isEmpty)
        #expect(records.callEnds.isEmpty)
        let problems = records.problems
        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.error.code == CaptureError.Code.tlsKeyMissing })
        #expect(Set(problems.compactMap { $0.connection?.id }).count == problems.count)
        #expect(problems.allSatisfy { $0.error.message.contains("key log") && $0.error.message.contains("TLS") })
    }

    @Test("another capture's key log: each connection reported without keys, and the key log noted as unused")
    func anotherCapturesKeyLog() throws {
        let bytes = try GRPCIOCaptureTests.fixture("TLS/tls13-aes128gcm.pcap")
        let records = try Self.decode(bytes, keyLog: try Self.keyLog("tls12-ecdhe-rsa-chacha20"), chunkSize: 1 << 20)
        #expect(records.messages.isEmpty)
        let codes = records.problems.map(\.error.code)
        #expect(codes.last == CaptureError.Code.keyLogUnused)
        #expect(codes.dropLast().allSatisfy { $0 == CaptureError.Code.tlsKeyMissing })
    }

    @Test("every key log of the fixtures together decrypts each capture")
    func mergedKeyLogs() throws {
        var keyLog = TLSKeyLog()
        for capture in Self.captures { keyLog.merge(try Self.keyLog(capture)) }
        for capture in Self.captures {
            let bytes = try GRPCIOCaptureTests.fixture("TLS/\(capture).pcap")
            try Self.expectCalls(try Self.decode(bytes, keyLog: keyLog, chunkSize: 1 << 16), as: capture)
        }
    }
}
