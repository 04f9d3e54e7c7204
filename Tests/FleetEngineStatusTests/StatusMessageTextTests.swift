import FleetEngineStatus
import Testing

@Suite("StatusMessageText")
struct StatusMessageTextTests {
    @Test(arguments: [
        ("", ""),
        ("plain text", "plain text"),
        ("%41", "A"),
        ("%4a%4A", "JJ"),
        ("%e2%82%ac", "€"),
        ("%E2%82%AC", "€"),
        ("%e2%82%AC", "€"),
        ("100%25", "100%"),
        ("%0A%0d%09", "\n\r\t"),
        ("%00", "\u{0}"),
        ("a%20b", "a b"),
        ("%F0%9F%9A%95 taxi", "🚕 taxi"),
    ])
    func validEscapesBecomeTheirBytes(encoded: String, decoded: String) {
        #expect(StatusMessageText.decode(encoded) == decoded)
    }

    @Test(arguments: [
        ("%", "%"),
        ("%4", "%4"),
        ("abc%", "abc%"),
        ("abc%4", "abc%4"),
        ("%ZZ", "%ZZ"),
        ("%G1", "%G1"),
        ("%1G", "%1G"),
        ("% 41", "% 41"),
        ("%%41", "%A"),
        ("100% sure", "100% sure"),
        ("%4%41", "%4A"),
        ("%-1", "%-1"),
    ])
    func malformedEscapesStayAsTheyWere(encoded: String, decoded: String) {
        #expect(StatusMessageText.decode(encoded) == decoded)
    }

    @Test(arguments: [
        ("%FF", "\u{FFFD}"),
        ("a%C3b", "a\u{FFFD}b"),
        ("%E2%82", "\u{FFFD}"),
        ("%C0%AF", "\u{FFFD}\u{FFFD}"),
        ("%ED%A0%80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("ok %80 then %C3%A9", "ok \u{FFFD} then é"),
    ])
    func invalidUTF8AfterDecodingBecomesReplacementCharacters(encoded: String, decoded: String) {
        #expect(StatusMessageText.decode(encoded) == decoded)
    }

    @Test func decodeTakesASubstring() {
        let value = "grpc-message: caf%C3%A9"
        #expect(StatusMessageText.decode(value.dropFirst(14)) == "café")
    }

    @Test(arguments: [
        ("", ""),
        ("Trip not found", "Trip not found"),
        ("100%", "100%25"),
        ("%41", "%2541"),
        ("line\nbreak", "line%0Abreak"),
        ("tab\there", "tab%09here"),
        ("\u{0}\u{1F}\u{7F}", "%00%1F%7F"),
        ("café", "caf%C3%A9"),
        ("🚕", "%F0%9F%9A%95"),
        (" ~!\"#$&'()*+,-./:;<=>?@[\\]^_`{|}", " ~!\"#$&'()*+,-./:;<=>?@[\\]^_`{|}"),
    ])
    func encodingEscapesEveryByteOutsidePrintableASCIIAndThePercentSign(text: String, encoded: String) {
        #expect(StatusMessageText.encode(text) == encoded)
    }

    @Test(arguments: [
        "",
        "%",
        "%%",
        "%41",
        "%ZZ",
        "100% sure, 50%off",
        "\u{0}nul\u{1}\u{1F}\u{7F}",
        "Ünïcödé «quotes» — 日本語 🚕 👩‍👩‍👧",
        "\r\n\t",
        "trailing %",
        String(repeating: "%E2", count: 20),
        "\u{FEFF}bom and \u{FFFD}",
    ])
    func encodeThenDecodeGivesTheTextBack(text: String) {
        let encoded = StatusMessageText.encode(text)
        #expect(encoded.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E })
        #expect(StatusMessageText.decode(encoded) == text)
    }

    @Test func everyByteValueRoundTripsThroughTheEscapes() {
        for byte in UInt8.min...UInt8(0x7F) {
            let text = String(decoding: [byte], as: UTF8.self)
            let encoded = StatusMessageText.encode(text)
            let printable = byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%")
            #expect(encoded.utf8.count == (printable ? 1 : 3), "byte \(byte)")
            #expect(StatusMessageText.decode(encoded) == text, "byte \(byte)")
        }
    }
}
