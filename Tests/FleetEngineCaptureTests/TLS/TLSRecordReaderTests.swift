import FleetEngineTestSupport
import Testing

@testable import FleetEngineCapture

@Suite("TLS record framing: records whole however the bytes are cut, and headers that cannot start a record refused")
struct TLSRecordReaderTests {
    /// A record as it is sent: type, version 3.3, length, fragment.
    static func record(_ type: UInt8, _ fragment: [UInt8]) -> [UInt8] {
        [type, 3, 3, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }

    /// Records of several lengths, a zero-length one among them.
    static let stream: [[UInt8]] = [
        record(22, (0..<200).map { UInt8($0) }),
        record(20, [1]),
        record(23, []),
        record(23, (0..<1_500).map { UInt8(truncatingIfNeeded: $0 &* 7) }),
        record(21, [2, 40]),
    ]

    /// What `read` hands over, as whole records (header and fragment joined) with their numbers.
    static func read(
        _ chunks: [ArraySlice<UInt8>], into reader: inout TLSRecordReader
    ) throws(TLSRecordReader.Malformed) -> [(number: Int, record: [UInt8])] {
        var records: [(number: Int, record: [UInt8])] = []
        for chunk in chunks {
            try reader.read(chunk) { header, fragment, number in
                #expect(header.count == 5)
                records.append((number, Array(header) + Array(fragment)))
            }
        }
        return records
    }

    @Test("many records in one segment are handed over in order, numbered from 1")
    func manyInOneSegment() throws {
        var reader = TLSRecordReader()
        let records = try Self.read([Array(Self.stream.joined())[...]], into: &reader)
        #expect(records.map(\.number) == [1, 2, 3, 4, 5])
        #expect(records.map(\.record) == Self.stream)
        #expect(reader.recordCount == 5)
        #expect(reader.bufferedByteCount == 0)
    }

    @Test("a zero-length record is handed over with an empty fragment")
    func zeroLengthRecord() throws {
        var reader = TLSRecordReader()
        var fragments: [[UInt8]] = []
        try reader.read(Self.record(23, [])[...]) { _, fragment, _ in fragments.append(Array(fragment)) }
        #expect(fragments == [[]])
    }

    @Test(
        "the stream cut once at every offset gives the same records",
        arguments: [1, 2, 3, 4, 5, 6, 100, 205, 206, 207, 211, 212, 216, 217, 1_000, 1_721, 1_722])
    func cutOnce(at offset: Int) throws {
        let bytes = Array(Self.stream.joined())
        var reader = TLSRecordReader()
        let records = try Self.read([bytes[..<offset], bytes[offset...]], into: &reader)
        #expect(records.map(\.record) == Self.stream)
        #expect(records.map(\.number) == [1, 2, 3, 4, 5])
    }

    @Test("the stream byte by byte: the header of each record split in every place, the same records")
    func byteByByte() throws {
        let bytes = Array(Self.stream.joined())
        var reader = TLSRecordReader()
        var waiting: [Int] = []
        var records: [[UInt8]] = []
        for index in bytes.indices {
            try reader.read(bytes[index...index]) { header, fragment, _ in
                records.append(Array(header) + Array(fragment))
            }
            waiting.append(reader.bufferedByteCount)
        }
        #expect(records == Self.stream)
        // What waits is never more than the record being read.
        #expect(waiting.max() == 5 + 1_499)
        #expect(waiting.last == 0)
    }

    @Test("a record across three segments is handed over once, whole, after the last")
    func acrossSegments() throws {
        let record = Self.stream[3]
        var reader = TLSRecordReader()
        var calls = 0
        try reader.read(record[..<3]) { _, _, _ in calls += 1 }
        #expect(reader.bufferedByteCount == 3)
        try reader.read(record[3..<700]) { _, _, _ in calls += 1 }
        #expect(reader.bufferedByteCount == 700)
        #expect(calls == 0)
        var fragment: [UInt8] = []
        try reader.read(record[700...]) { _, body, _ in
            calls += 1
            fragment = Array(body)
        }
        #expect(calls == 1)
        #expect(fragment == Array(record.dropFirst(5)))
        #expect(reader.bufferedByteCount == 0)
    }

    @Test("reset drops the unfinished record; the next record read is whole")
    func resetDropsPending() throws {
        var reader = TLSRecordReader()
        try reader.read(Self.stream[0][..<50]) { _, _, _ in Issue.record("no record is whole yet") }
        #expect(reader.bufferedByteCount == 50)
        reader.reset()
        #expect(reader.bufferedByteCount == 0)
        let records = try Self.read([Self.stream[4][...]], into: &reader)
        #expect(records.map(\.record) == [Self.stream[4]])
    }

    /// A header that cannot start a record and the message it is refused with.
    struct BadHeader: Sendable, CustomTestStringConvertible {
        var name: String
        var header: [UInt8]
        var message: String
        var testDescription: String { name }
    }

    static let badHeaders: [BadHeader] = [
        BadHeader(
            name: "content type 25", header: [25, 3, 3, 0, 1],
            message: "bytes 190303 cannot start a TLS record (content type 25, version 3.3)"),
        BadHeader(
            name: "content type 19", header: [19, 3, 3, 0, 1],
            message: "bytes 130303 cannot start a TLS record (content type 19, version 3.3)"),
        BadHeader(
            name: "major version 2", header: [22, 2, 0, 0, 1],
            message: "bytes 160200 cannot start a TLS record (content type 22, version 2.0)"),
        BadHeader(
            name: "a length of 18,433", header: [23, 3, 3, 0x48, 0x01],
            message: "a TLS record announces 18433 bytes, more than the 18432 a record may carry"),
        BadHeader(
            name: "a length of 65,535", header: [23, 3, 3, 0xFF, 0xFF],
            message: "a TLS record announces 65535 bytes, more than the 18432 a record may carry"),
    ]

    @Test(
        "a bad header throws Malformed, whole or cut, after the records before it are handed over",
        arguments: badHeaders)
    func badHeader(_ bad: BadHeader) throws {
        let bytes = Self.stream[0] + Self.stream[1] + bad.header + [0]
        for cut in [0, 1, 3, 4, 5, 6] {
            let offset = Self.stream[0].count + Self.stream[1].count + cut
            var reader = TLSRecordReader()
            var records: [[UInt8]] = []
            var thrown: TLSRecordReader.Malformed?
            do {
                for chunk in [bytes[..<offset], bytes[offset...]] {
                    try reader.read(chunk) { header, fragment, _ in records.append(Array(header) + Array(fragment)) }
                }
            } catch {
                thrown = error
            }
            #expect(records == [Self.stream[0], Self.stream[1]], "cut \(cut)")
            #expect(thrown?.message == bad.message, "cut \(cut)")
        }
    }

    @Test("the longest record allowed, 18,432 bytes of fragment, is read")
    func longestRecord() throws {
        let record = Self.record(23, [UInt8](repeating: 0x61, count: TLSRecordReader.maxFragmentLength))
        var reader = TLSRecordReader()
        let records = try Self.read([record[..<9_000], record[9_000...]], into: &reader)
        #expect(records.map(\.record.count) == [18_437])
    }

    @Test(
        "looksLikeRecord takes a TLS header for one and other first bytes for none",
        arguments: [
            (bytes: [UInt8]([22, 3, 1, 0, 196]), expected: true),
            ([23, 3, 3, 0x48, 0x00], true),
            ([20, 3, 3, 0, 1], true),
            ([21, 3, 4, 0, 2], true),
            ([24, 3, 3, 0, 1], false),  // heartbeat: not a first record
            ([23, 3, 5, 0, 1], false),
            ([23, 3, 3, 0x48, 0x01], false),
            ([22, 3, 1, 0], false),  // too short to tell
            (Array("PRI * HTTP/2.0\r\n".utf8), false),
            ([0, 0, 18, 4, 0], false),  // an HTTP/2 SETTINGS frame
        ])
    func looksLikeRecord(bytes: [UInt8], expected: Bool) {
        #expect(TLSRecordReader.looksLikeRecord(bytes[...]) == expected)
    }
}
