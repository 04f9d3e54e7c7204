import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// `map<string, …>` keys are distinct by code points in protobuf but by canonical equivalence in
/// Swift's `String`: equivalent keys are refused with a located error rather than merged.
@Suite("Canonically equivalent map keys are refused, not merged")
struct MapKeyEquivalenceTests {
    /// `"e\u{301}"` (e, COMBINING ACUTE ACCENT) then `"\u{E9}"` (é): one key to Swift, two to protobuf.
    static let equivalentEntries = "1a08 0a03 65cc81 1201 31" + "1a07 0a02 c3a9 1201 32"

    @Test("binary ErrorInfo.metadata with equivalent keys is refused at the second key")
    func binaryErrorInfo() {
        do {
            let info = try ErrorInfo(serializedBytes: hexBytes(Self.equivalentEntries))
            Issue.record("accepted equivalent keys as \(info.metadata)")
        } catch {
            #expect(error.code == .canonicallyEquivalentMapKeys)
            #expect(error.byteOffset == 14)
            #expect(error.fieldNumber == 1)
            #expect(error.fieldPath == "google.rpc.ErrorInfo.metadata[1].key")
            #expect(
                error.message
                    == "map field metadata names the keys \"e\u{301}\" (U+0065 U+0301) and \"\u{E9}\" (U+00E9),"
                    + " which are canonically equivalent: two keys to protobuf but one to Swift's String,"
                    + " so one entry would be lost")
        }
    }

    @Test("binary QuotaFailure.Violation.quota_dimensions with equivalent keys is refused at the second key")
    func binaryQuotaDimensions() {
        let violation = "3207 0a02 c3a9 1201 31" + "3208 0a03 65cc81 1201 32"
        do {
            let failure = try QuotaFailure(serializedBytes: hexBytes("0a13" + violation))
            Issue.record("accepted equivalent keys as \(failure.violations)")
        } catch {
            #expect(error.code == .canonicallyEquivalentMapKeys)
            #expect(error.byteOffset == 15)
            #expect(error.fieldNumber == 1)
            #expect(error.fieldPath == "google.rpc.QuotaFailure.violations[0].quota_dimensions[1].key")
        }
    }

    @Test("a key written with the same code points twice keeps the last value, as protobuf does")
    func binaryExactDuplicate() throws {
        let info = try ErrorInfo(serializedBytes: hexBytes("1a07 0a02 c3a9 1201 31" + "1a07 0a02 c3a9 1201 32"))
        #expect(info.metadata == ["\u{E9}": "2"])
        #expect(info.metadata.keys.map { Array($0.unicodeScalars) } == [["\u{E9}"]])
    }

    @Test("an equivalent key in an entry kept as an unknown field joins no map, so nothing is refused")
    func binaryEntryKeptUnknown() throws {
        // The second entry carries field 3 besides its key and value: Google's parsers keep it whole as an
        // unknown field of ErrorInfo (Python gives metadata {"e\u{301}": "1"}), and so does the codec.
        let input = hexBytes("1a08 0a03 65cc81 1201 31" + "1a09 0a02 c3a9 1201 32 1801")
        let info = try ErrorInfo(serializedBytes: input)
        #expect(info.metadata.keys.map { Array($0.unicodeScalars) } == [["e", "\u{301}"]])
        #expect(info.metadata.values.first == "1")
        #expect(info.serializedBytes() == input)
    }

    @Test("JSON ErrorInfo.metadata with equivalent keys is refused at the second key")
    func jsonErrorInfo() {
        let text = #"{"metadata":{"e\u0301":"1","\u00e9":"2"}}"#
        do {
            let info = try ErrorInfo(jsonUTF8Bytes: Array(text.utf8))
            Issue.record("accepted equivalent keys as \(info.metadata)")
        } catch {
            #expect(error.code == .canonicallyEquivalentMapKeys)
            #expect(error.byteOffset == 27)
            #expect(error.fieldPath == "google.rpc.ErrorInfo.metadata.\u{E9}")
        }
    }

    @Test("JSON quotaDimensions with equivalent keys is refused at the second key")
    func jsonQuotaDimensions() {
        let text = #"{"violations":[{"quotaDimensions":{"\u00e9":"1","e\u0301":"2"}}]}"#
        do {
            let failure = try QuotaFailure(jsonUTF8Bytes: Array(text.utf8))
            Issue.record("accepted equivalent keys as \(failure.violations)")
        } catch {
            #expect(error.code == .canonicallyEquivalentMapKeys)
            #expect(error.byteOffset == 48)
            #expect(error.fieldPath == "google.rpc.QuotaFailure.violations[0].quota_dimensions.e\u{301}")
        }
    }

    @Test("a JSON map naming the same key twice is still refused as invalid JSON")
    func jsonExactDuplicate() {
        let text = #"{"metadata":{"\u00e9":"1","\u00e9":"2"}}"#
        #expect(throws: CodecError(.invalidJSON)) { try ErrorInfo(jsonUTF8Bytes: Array(text.utf8)) }
    }

    @Test("a map given under both its JSON names replaces the first, so equivalent keys there do not conflict")
    func jsonBothNamesReplace() throws {
        let text = #"{"violations":[{"quotaDimensions":{"\u00e9":"1"},"quota_dimensions":{"e\u0301":"2"}}]}"#
        let failure = try QuotaFailure(jsonUTF8Bytes: Array(text.utf8))
        let dimensions = try #require(failure.violations.first).quotaDimensions
        #expect(dimensions.keys.map { Array($0.unicodeScalars) } == [["e", "\u{301}"]])
        #expect(dimensions.values.first == "2")
    }

    /// Keys that Swift's `String` keeps apart too: compatibility (not canonical) equivalents, and
    /// different letters.
    static let distinctKeys: [String: String] = ["\u{FB01}": "1", "fi": "2", "e\u{301}": "3", "E\u{301}": "4"]

    @Test("distinct keys round-trip through binary with their code points")
    func binaryRoundTrip() throws {
        var info = ErrorInfo()
        info.metadata = Self.distinctKeys
        let decoded = try ErrorInfo(serializedBytes: info.serializedBytes())
        #expect(decoded.metadata == Self.distinctKeys)
        #expect(Set(decoded.metadata.keys.map { Array($0.unicodeScalars) }) == Self.keyScalars)
    }

    @Test("distinct keys round-trip through JSON with their code points")
    func jsonRoundTrip() throws {
        var violation = QuotaFailure.Violation()
        violation.quotaDimensions = Self.distinctKeys
        let decoded = try QuotaFailure.Violation(jsonUTF8Bytes: violation.jsonUTF8Bytes())
        #expect(decoded.quotaDimensions == Self.distinctKeys)
        #expect(Set(decoded.quotaDimensions.keys.map { Array($0.unicodeScalars) }) == Self.keyScalars)
    }

    @Test("map entries are written in the order of their keys' UTF-8 bytes, as Google's encoders sort them")
    func binaryKeyOrder() throws {
        // Swift's `<` compares canonical forms: "e\u{301}" (NFC "\u{E9}") after "f". Protobuf compares
        // bytes: 65 cc 81 before 66. Google's Python package writes this map as below.
        var info = ErrorInfo()
        info.metadata = ["f": "2", "e\u{301}": "1", "\u{212B}": "4", "B": "3"]
        let expected = "1a060a0142120133" + "1a080a0365cc81120131" + "1a060a0166120132" + "1a080a03e284ab120134"
        #expect(info.serializedBytes() == hexBytes(expected))
        #expect(try ErrorInfo(serializedBytes: hexBytes(expected)).serializedBytes() == hexBytes(expected))
    }

    private static var keyScalars: Set<[Unicode.Scalar]> {
        Set(distinctKeys.keys.map { Array($0.unicodeScalars) })
    }
}
