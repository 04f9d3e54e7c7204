import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// Expected bytes and JSON from Google's Python package (protobuf's `json_format.MessageToJson`,
/// `Parse` and `SerializeToString`), for `google.rpc.Status` details packed as `Any`.
@Suite("Any in proto3 JSON: an Any packed in an Any, Empty packed in an Any, and deep nesting")
struct AnyJSONEdgeTests {
    static let anyInAnyBytes = hexBytes(
        "1a5f0a27747970652e676f6f676c65617069732e636f6d2f676f6f676c652e70726f746f6275662e416e7912340a2e"
            + "747970652e676f6f676c65617069732e636f6d2f676f6f676c652e70726f746f6275662e496e74333256616c756512020803")
    static let emptyAnyInAnyBytes = hexBytes(
        "1a290a27747970652e676f6f676c65617069732e636f6d2f676f6f676c652e70726f746f6275662e416e79")
    static let emptyInAnyBytes = hexBytes(
        "1a2b0a29747970652e676f6f676c65617069732e636f6d2f676f6f676c652e70726f746f6275662e456d707479")

    @Test(
        "an Any packed in an Any prints under \"value\", as Google's printer does, and reads back to the same bytes",
        arguments: [
            (
                anyInAnyBytes,
                #"{"details":[{"@type":"type.googleapis.com/google.protobuf.Any","value":{"@type":"#
                    + #""type.googleapis.com/google.protobuf.Int32Value","value":3}}]}"#
            ),
            (emptyAnyInAnyBytes, #"{"details":[{"@type":"type.googleapis.com/google.protobuf.Any","value":{}}]}"#),
        ])
    func anyInAny(bytes: [UInt8], json: String) throws {
        let status = try RPCStatus(serializedBytes: bytes)
        #expect(try status.jsonString() == json)
        #expect(try RPCStatus(jsonString: json).serializedBytes() == bytes)
    }

    @Test("Empty packed in an Any is its \"@type\" alone both ways, and \"value\" is not one of its fields")
    func emptyInAny() throws {
        let json = #"{"details":[{"@type":"type.googleapis.com/google.protobuf.Empty"}]}"#
        #expect(try RPCStatus(serializedBytes: Self.emptyInAnyBytes).jsonString() == json)
        #expect(try RPCStatus(jsonString: json).serializedBytes() == Self.emptyInAnyBytes)
        let withValue = #"{"details":[{"@type":"type.googleapis.com/google.protobuf.Empty","value":{}}]}"#
        #expect(throws: CodecError.self) { _ = try RPCStatus(jsonString: withValue) }
    }

    /// A Status whose one detail packs a Status, `levels` deep: a few bytes a level.
    static func nestedStatus(levels: Int) -> [UInt8] {
        func field(_ number: UInt8, _ value: [UInt8]) -> [UInt8] {
            var bytes = [number << 3 | 2]
            var length = value.count
            while length >= 0x80 {
                bytes.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            return bytes + [UInt8(length)] + value
        }
        let url = Array("type.googleapis.com/google.rpc.Status".utf8)
        var status: [UInt8] = []
        for _ in 0..<levels { status = field(3, field(1, url) + field(2, status)) }
        return status
    }

    @Test("Any values nested past the limit fail to print with an error, not a stack overflow")
    func deepNesting() throws {
        let shallow = try RPCStatus(serializedBytes: Self.nestedStatus(levels: JSONWriter.maxPackedDepth))
        _ = try shallow.jsonUTF8Bytes()
        // 20,000 levels are under 1 MB, well inside the size limit; printing them used to crash.
        let deep = try RPCStatus(serializedBytes: Self.nestedStatus(levels: 20_000))
        let error = try #require(throws: CodecError.self) { _ = try deep.jsonUTF8Bytes() }
        #expect(error.code == .nestingTooDeep)
    }
}
