import FleetEngineWire
import Testing

@Suite("GRPCMetadata")
struct GRPCMetadataTests {
    @Test("keeps fields in order, repeated names included")
    func order() {
        var metadata: GRPCMetadata = ["b": "1", "a": "2"]
        metadata.append(name: "b", value: "3")
        #expect(metadata.map(\.description) == ["b: 1", "a: 2", "b: 3"])
        #expect(metadata.first(named: "b") == "1")
        #expect(metadata.values(named: "b") == ["1", "3"])
        #expect(metadata.first(named: "c") == nil)
        #expect(metadata.contains(name: "a"))
        #expect(!metadata.contains(name: "A"))
    }

    @Test("writes binary values as unpadded base64 and reads padded, unpadded and joined values")
    func binaryValues() throws {
        var metadata = GRPCMetadata()
        metadata.append(name: "trace-bin", binaryValue: [0xFB, 0xFF])
        #expect(metadata.first(named: "trace-bin") == "+/8")
        metadata.append(name: "trace-bin", value: "AQ==, Ag")
        metadata.append(name: "trace-bin", value: "-_8=")
        #expect(try metadata.binaryValues(named: "trace-bin") == [[0xFB, 0xFF], [1], [2], [0xFB, 0xFF]])
    }

    @Test("says which field is not base64")
    func invalidBinary() throws {
        let metadata: GRPCMetadata = ["a": "x", "trace-bin": "A*"]
        let error = try #require(throws: WireError(.invalidMetadata)) { try metadata.binaryValues(named: "trace-bin") }
        #expect(error.message.hasPrefix("metadata field 1 'trace-bin' is not base64: "))
    }

    @Test(
        "reads grpc-retry-pushback-ms as proposal A6 defines it",
        arguments: [
            ("0", Duration.zero as Duration?, false),
            ("1500", .milliseconds(1_500), false),
            (" 20 ", .milliseconds(20), false),
            ("999999999999999999", .milliseconds(999_999_999_999_999_999), false),
            ("-1", nil, true),
            ("abc", nil, true),
            ("", nil, true),
            ("1.5", nil, true),
            ("9999999999999999999", nil, true),
        ])
    func retryPushback(value: String, delay: Duration?, forbidsRetry: Bool) {
        let metadata: GRPCMetadata = ["grpc-retry-pushback-ms": value]
        #expect(metadata.retryPushback == delay)
        #expect(metadata.retryPushbackForbidsRetry == forbidsRetry)
    }

    @Test("without grpc-retry-pushback-ms there is no pushback and nothing forbids a retry")
    func noPushback() {
        let metadata: GRPCMetadata = ["x": "1"]
        #expect(metadata.retryPushback == nil)
        #expect(!metadata.retryPushbackForbidsRetry)
    }
}
