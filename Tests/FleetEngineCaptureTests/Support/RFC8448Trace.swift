import FleetEngineTestSupport
import Foundation
import Testing

/// The values of one RFC 8448 trace, read from a fixture (`rfc8448-simple-1rtt.txt`,
/// `rfc8448-resumed-0rtt.txt`): each entry a name and a colon, then its octets in hex on indented
/// lines, with `#` comment lines (the RFC's headings) between entries.
struct RFC8448Trace {
    /// An entry the test asked for is not in the fixture, or a line is not of its form.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private var values: [String: [UInt8]] = [:]

    /// Section 3, "Simple 1-RTT Handshake".
    static func simple1RTT() throws -> RFC8448Trace { try RFC8448Trace(fixture: "rfc8448-simple-1rtt.txt") }

    /// Section 4, "Resumed 0-RTT Handshake".
    static func resumed0RTT() throws -> RFC8448Trace { try RFC8448Trace(fixture: "rfc8448-resumed-0rtt.txt") }

    init(fixture name: String) throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
        let text = try String(contentsOf: url, encoding: .utf8)
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix(" ") {
                guard let current else { throw Malformed(description: "\(name): hex before any name: \(line)") }
                values[current, default: []] += hexBytes(String(line))
            } else if line.hasSuffix(":") {
                current = String(line.dropLast())
                values[String(line.dropLast())] = []
            } else {
                throw Malformed(description: "\(name): neither a name, hex nor a comment: \(line)")
            }
        }
    }

    /// The octets of the entry `name`.
    subscript(_ name: String) -> [UInt8] {
        get throws {
            guard let value = values[name] else { throw Malformed(description: "no entry \(name)") }
            return value
        }
    }

    /// The NSS key log lines of the connection, one per secret named, under the trace's client
    /// random (the labels of RFC 9850, in `label` → entry name pairs).
    func keyLog(_ secrets: KeyValuePairs<String, String>) throws -> String {
        let clientRandom = hexString(try self["client_random"])
        return try secrets.map { label, entry in "\(label) \(clientRandom) \(hexString(try self[entry]))\n" }
            .joined()
    }

    /// The key log lines of the four traffic secrets a TLS 1.3 client logs.
    func fullKeyLog() throws -> String {
        try keyLog([
            "CLIENT_HANDSHAKE_TRAFFIC_SECRET": "client_handshake_traffic_secret",
            "SERVER_HANDSHAKE_TRAFFIC_SECRET": "server_handshake_traffic_secret",
            "CLIENT_TRAFFIC_SECRET_0": "client_application_traffic_secret",
            "SERVER_TRAFFIC_SECRET_0": "server_application_traffic_secret",
        ])
    }

    /// The key log lines of the first application traffic secrets alone.
    func trafficSecretsOnlyKeyLog() throws -> String {
        try keyLog([
            "CLIENT_TRAFFIC_SECRET_0": "client_application_traffic_secret",
            "SERVER_TRAFFIC_SECRET_0": "server_application_traffic_secret",
        ])
    }
}
