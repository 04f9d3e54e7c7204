import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite("TLS record decryption: RFC 8448's protected records open to its plaintexts, in sequence")
struct TLSRecordDecryptorRFC8448Tests {
    /// One protected record of a trace and what it opens to: the inner content type and the
    /// plaintext, given as trace entries joined or as literal hex.
    struct Opening: Sendable {
        var record: String
        var contentType: UInt8
        var plaintext: [String] = []
        var plaintextHex: String?
    }

    /// The records one traffic secret protects, in the order the trace sends them.
    struct SecretRun: Sendable, CustomTestStringConvertible {
        var fixture: String
        var secret: String
        var records: [Opening]
        var testDescription: String { "\(fixture): \(secret)" }
    }

    static let fiftyOctets = hexString((0..<50).map { UInt8($0) })

    static let runs: [SecretRun] = [
        SecretRun(
            fixture: "rfc8448-simple-1rtt.txt", secret: "server_handshake_traffic_secret",
            records: [
                Opening(
                    record: "server_flight_record", contentType: 22,
                    plaintext: ["encrypted_extensions", "certificate", "certificate_verify", "server_finished"])
            ]),
        SecretRun(
            fixture: "rfc8448-simple-1rtt.txt", secret: "client_handshake_traffic_secret",
            records: [Opening(record: "client_finished_record", contentType: 22, plaintext: ["client_finished"])]),
        SecretRun(
            fixture: "rfc8448-simple-1rtt.txt", secret: "server_application_traffic_secret",
            records: [
                Opening(record: "new_session_ticket_record", contentType: 22, plaintext: ["new_session_ticket"]),
                Opening(record: "server_application_data_record", contentType: 23, plaintextHex: fiftyOctets),
                Opening(record: "server_alert_record", contentType: 21, plaintextHex: "0100"),
            ]),
        SecretRun(
            fixture: "rfc8448-simple-1rtt.txt", secret: "client_application_traffic_secret",
            records: [
                Opening(record: "client_application_data_record", contentType: 23, plaintextHex: fiftyOctets),
                Opening(record: "client_alert_record", contentType: 21, plaintextHex: "0100"),
            ]),
        SecretRun(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "client_early_traffic_secret",
            records: [
                Opening(
                    record: "early_application_data_record", contentType: 23, plaintext: ["early_application_data"]),
                Opening(record: "end_of_early_data_record", contentType: 22, plaintext: ["end_of_early_data"]),
            ]),
        SecretRun(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "server_handshake_traffic_secret",
            records: [
                Opening(
                    record: "server_flight_record", contentType: 22,
                    plaintext: ["encrypted_extensions", "server_finished"])
            ]),
        SecretRun(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "client_handshake_traffic_secret",
            records: [Opening(record: "client_finished_record", contentType: 22, plaintext: ["client_finished"])]),
        SecretRun(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "server_application_traffic_secret",
            records: [
                Opening(record: "server_application_data_record", contentType: 23, plaintextHex: fiftyOctets),
                Opening(record: "server_alert_record", contentType: 21, plaintextHex: "0100"),
            ]),
        SecretRun(
            fixture: "rfc8448-resumed-0rtt.txt", secret: "client_application_traffic_secret",
            records: [
                Opening(record: "client_application_data_record", contentType: 23, plaintextHex: fiftyOctets),
                Opening(record: "client_alert_record", contentType: 21, plaintextHex: "0100"),
            ]),
    ]

    static func suite() throws -> TLSCipherSuite { try #require(TLSCipherSuite.named(0x1301)) }

    @Test(
        "each record opens to the RFC's content type and plaintext, the sequence number one up each time",
        arguments: runs)
    func opensInSequence(_ run: SecretRun) throws {
        let trace = try RFC8448Trace(fixture: run.fixture)
        var decryptor = TLSRecordDecryptor(tls13: try Self.suite(), trafficSecret: try trace[run.secret])
        for (index, opening) in run.records.enumerated() {
            #expect(decryptor.sequenceNumber == UInt64(index))
            let record = try trace[opening.record]
            let opened = try decryptor.open(header: record.prefix(5), fragment: record.dropFirst(5))
            let expected = try opening.plaintextHex.map(hexBytes) ?? opening.plaintext.flatMap { try trace[$0] }
            #expect(opened.contentType == opening.contentType, "\(opening.record)")
            #expect(hexString([UInt8](opened.plaintext)) == hexString(expected), "\(opening.record)")
        }
        #expect(decryptor.sequenceNumber == UInt64(run.records.count))
    }

    @Test("a record given out of turn does not open, and the failure leaves the sequence number where it was")
    func outOfTurn() throws {
        let trace = try RFC8448Trace.simple1RTT()
        var decryptor = TLSRecordDecryptor(
            tls13: try Self.suite(), trafficSecret: try trace["server_application_traffic_secret"])
        // The application data record is the server's second under this secret (after the ticket).
        let record = try trace["server_application_data_record"]
        #expect(throws: TLSRecordDecryptor.Failure.self) {
            try decryptor.open(header: record.prefix(5), fragment: record.dropFirst(5))
        }
        #expect(decryptor.sequenceNumber == 0)
        let ticket = try trace["new_session_ticket_record"]
        #expect(try decryptor.open(header: ticket.prefix(5), fragment: ticket.dropFirst(5)).contentType == 22)
        #expect(try decryptor.open(header: record.prefix(5), fragment: record.dropFirst(5)).contentType == 23)
    }

    @Test(
        "a changed byte anywhere in the record (header included, it is the additional data) fails authentication",
        arguments: [1, 2, 5, 40, 71])
    func changedByte(at offset: Int) throws {
        let trace = try RFC8448Trace.simple1RTT()
        var decryptor = TLSRecordDecryptor(
            tls13: try Self.suite(), trafficSecret: try trace["client_application_traffic_secret"])
        var record = try trace["client_application_data_record"]
        record[offset] ^= 0x01
        var failure: TLSRecordDecryptor.Failure?
        do {
            _ = try decryptor.open(header: record.prefix(5), fragment: record.dropFirst(5))
        } catch {
            failure = error
        }
        guard case .authenticationFailed = failure else {
            Issue.record("expected authenticationFailed, got \(String(describing: failure))")
            return
        }
    }

    @Test("a fragment shorter than the tag is too short, with its length")
    func tooShort() throws {
        let trace = try RFC8448Trace.simple1RTT()
        var decryptor = TLSRecordDecryptor(
            tls13: try Self.suite(), trafficSecret: try trace["client_application_traffic_secret"])
        var failure: TLSRecordDecryptor.Failure?
        do {
            _ = try decryptor.open(
                header: [0x17, 0x03, 0x03, 0x00, 0x0F][...], fragment: [UInt8](repeating: 0, count: 15)[...])
        } catch {
            failure = error
        }
        guard case .tooShort(15) = failure else {
            Issue.record("expected tooShort(15), got \(String(describing: failure))")
            return
        }
    }
}
