import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// The codec against bytes and JSON that Google's own Python packages produced.
@Suite("Golden vectors from Google's Python packages")
struct GoldenVectorTests {
    @Test("the fixtures are present")
    func fixturesLoaded() {
        #expect(GoldenVectors.cases.count >= 50)
        #expect(GoldenVectors.rejected.count >= 10)
        #expect(GoldenVectors.acceptedJSON.count >= 10)
        #expect(GoldenVectors.rejectedJSON.count >= 10)
    }

    @Test("decoding and encoding again gives Google's bytes", arguments: GoldenVectors.cases)
    func binaryRoundTrip(_ vector: GoldenVectors.Case) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(serializedBytes: vector.binary, options: DecodingOptions())
        let encoded = message.serializedBytes()
        if vector.byteExact {
            #expect(hexString(encoded) == hexString(vector.binary))
        } else {
            #expect(encoded.count == vector.binary.count)
            let again = try type.init(serializedBytes: encoded, options: DecodingOptions())
            #expect(hexString(again.serializedBytes()) == hexString(encoded))
        }
    }

    @Test("our JSON equals Google's MessageToJson", arguments: GoldenVectors.cases.filter { $0.json != nil })
    func printsGoogleJSON(_ vector: GoldenVectors.Case) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(serializedBytes: vector.binary, options: DecodingOptions())
        let ours = try SemanticJSON(text: message.jsonUTF8Bytes(options: JSONEncodingOptions()))
        let google = try SemanticJSON(text: try #require(vector.json))
        #expect(ours == google)
    }

    @Test(
        "pretty-printed, our JSON is byte for byte Google's (where Google's has no \\u escapes: we write UTF-8)",
        arguments: GoldenVectors.cases.filter { vector in
            guard let json = vector.json else { return false }
            return !String(decoding: json, as: UTF8.self).contains("\\u")
        }
    )
    func printsGoogleJSONExactly(_ vector: GoldenVectors.Case) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(serializedBytes: vector.binary, options: DecodingOptions())
        let ours = try message.jsonUTF8Bytes(options: JSONEncodingOptions(prettyPrinted: true)) + [0x0a]
        let google = try #require(vector.json)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: google, as: UTF8.self))
    }

    @Test("parsing Google's JSON gives Google's bytes", arguments: GoldenVectors.cases.filter { $0.json != nil })
    func parsesGoogleJSON(_ vector: GoldenVectors.Case) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(jsonUTF8Bytes: try #require(vector.json), options: JSONDecodingOptions())
        let expected = try type.init(serializedBytes: vector.binary, options: DecodingOptions())
        if vector.byteExact {
            #expect(hexString(message.serializedBytes()) == hexString(vector.binary))
        } else {
            #expect(message.serializedBytes() == expected.serializedBytes())
        }
    }

    @Test(
        "pretty-printed and proto-name JSON parse back to the same message",
        arguments: GoldenVectors.cases.filter { $0.json != nil })
    func jsonOptionsRoundTrip(_ vector: GoldenVectors.Case) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(serializedBytes: vector.binary, options: DecodingOptions())
        for options in [JSONEncodingOptions(prettyPrinted: true), JSONEncodingOptions(preservingProtoFieldNames: true)]
        {
            let text = try message.jsonUTF8Bytes(options: options)
            let back = try type.init(jsonUTF8Bytes: text, options: JSONDecodingOptions())
            #expect(back.serializedBytes() == message.serializedBytes())
        }
    }

    @Test("input Google's parser rejects is rejected with a typed error", arguments: GoldenVectors.rejected)
    func rejectsWhatGoogleRejects(_ vector: GoldenVectors.Rejected) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        #expect(throws: CodecError.self, "\(vector.reason)") {
            try type.init(serializedBytes: hexBytes(vector.hex), options: DecodingOptions())
        }
    }

    @Test("JSON forms Google's parser accepts parse to Google's bytes", arguments: GoldenVectors.acceptedJSON)
    func acceptsWhatGoogleAccepts(_ vector: GoldenVectors.JSONInput) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(jsonUTF8Bytes: Array(vector.json.utf8), options: JSONDecodingOptions())
        #expect(hexString(message.serializedBytes()) == (vector.hex ?? ""))
        if let canonical = vector.canonicalJson {
            let ours = try SemanticJSON(text: message.jsonUTF8Bytes(options: JSONEncodingOptions()))
            #expect(ours == (try SemanticJSON(text: Array(canonical.utf8))))
        }
    }

    @Test("JSON Google's parser refuses is refused with a typed error", arguments: GoldenVectors.rejectedJSON)
    func refusesWhatGoogleRefuses(_ vector: GoldenVectors.JSONInput) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        #expect(throws: CodecError.self, "\(vector.reason ?? "")") {
            try type.init(jsonUTF8Bytes: Array(vector.json.utf8), options: JSONDecodingOptions())
        }
    }
}
