import Testing

@testable import FleetEngineCodec

/// The one base64 encoder of the package, in the forms its callers ask for: padded standard for
/// proto3 JSON and the tool's output, unpadded standard for gRPC `-bin` metadata, unpadded
/// URL-safe for JWTs and page tokens, padded URL-safe for encoded route segments.
@Suite("Base64")
struct Base64Tests {
    struct Case: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var standard: String
        var standardUnpadded: String
        var urlSafe: String
        var urlSafeUnpadded: String
        var testDescription: String { "\(bytes)" }
    }

    static let cases = [
        Case(bytes: [], standard: "", standardUnpadded: "", urlSafe: "", urlSafeUnpadded: ""),
        Case(bytes: [0xFB], standard: "+w==", standardUnpadded: "+w", urlSafe: "-w==", urlSafeUnpadded: "-w"),
        Case(bytes: [0xFB, 0xFF], standard: "+/8=", standardUnpadded: "+/8", urlSafe: "-_8=", urlSafeUnpadded: "-_8"),
        Case(
            bytes: [0xFB, 0xFF, 0xBF], standard: "+/+/", standardUnpadded: "+/+/", urlSafe: "-_-_",
            urlSafeUnpadded: "-_-_"),
        Case(
            bytes: Array("hi!?".utf8), standard: "aGkhPw==", standardUnpadded: "aGkhPw", urlSafe: "aGkhPw==",
            urlSafeUnpadded: "aGkhPw"),
    ]

    @Test("each alphabet, padded or not", arguments: cases)
    func encodings(of example: Case) {
        #expect(Base64.encode(example.bytes) == example.standard)
        #expect(Base64.encode(example.bytes, padded: false) == example.standardUnpadded)
        #expect(Base64.encode(example.bytes, urlSafe: true) == example.urlSafe)
        #expect(Base64.encode(example.bytes, padded: false, urlSafe: true) == example.urlSafeUnpadded)
    }

    @Test("the text form and the appending form write the same bytes, after what is there", arguments: cases)
    func appendingForm(of example: Case) {
        var output = Array("x".utf8)
        Base64.encode(example.bytes, into: &output, padded: false, urlSafe: true)
        #expect(output == Array(("x" + example.urlSafeUnpadded).utf8))
        #expect(Base64.encode(example.bytes[...]) == example.standard)
    }

    @Test("the decoder reads back every form the encoder writes", arguments: cases)
    func decodesEveryForm(of example: Case) throws {
        for text in [example.standard, example.standardUnpadded, example.urlSafe, example.urlSafeUnpadded] {
            #expect(try Base64.decode(text) == example.bytes, "\(text)")
        }
    }

    @Test("every byte value round-trips in every form")
    func everyByte() throws {
        let all = (0...255).map { UInt8($0) }
        for padded in [true, false] {
            for urlSafe in [true, false] {
                #expect(try Base64.decode(Base64.encode(all, padded: padded, urlSafe: urlSafe)) == all)
            }
        }
    }
}
