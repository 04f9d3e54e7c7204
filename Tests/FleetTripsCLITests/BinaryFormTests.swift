import FleetTripsInput
import Testing

@testable import FleetTripsCLI

@Suite("BinaryForm")
struct BinaryFormTests {
    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    @Test("reads base64 in the standard and URL-safe alphabets, with or without padding")
    func base64Alphabets() throws {
        #expect(try BinaryForm.base64.bytes(from: Self.text("+/8=")) == [0xfb, 0xff])
        #expect(try BinaryForm.base64.bytes(from: Self.text("-_8=")) == [0xfb, 0xff])
        #expect(try BinaryForm.base64.bytes(from: Self.text("-_8")) == [0xfb, 0xff])
        #expect(try BinaryForm.base64.bytes(from: Self.text("aGVsbG8")) == Self.text("hello"))
        #expect(try BinaryForm.base64.bytes(from: Self.text("aGVsbA==")) == Self.text("hell"))
        #expect(try BinaryForm.base64.bytes(from: Self.text("")) == [])
    }

    @Test("skips whitespace anywhere in base64, and reads padded pieces one after another")
    func base64Whitespace() throws {
        #expect(try BinaryForm.base64.bytes(from: Self.text(" aGVs\r\n bG8=\n")) == Self.text("hello"))
        #expect(try BinaryForm.base64.bytes(from: Self.text("aGk=\naGk=\n")) == Self.text("hihi"))
        #expect(try BinaryForm.base64.bytes(from: Self.text("aA==aGk")) == Self.text("hhi"))
    }

    @Test("says which base64 character is wrong and where")
    func base64Errors() throws {
        let cases: [(String, String)] = [
            ("aGV!bG8=", "'!' at text offset 3 is not a base64 character"),
            ("aGVs\u{e9}", "byte 0xc3 at text offset 4 is not a base64 character"),
            ("a===", "'=' at text offset 1 does not end a group of 2 or 3 base64 characters"),
            ("aGk=a", "base64 text ends with a single character at text offset 4, too few for a byte"),
            ("aG=k", "base64 character at text offset 3 comes before the padding of its group is complete"),
            ("aG=", "base64 text ends inside the padding of the group at text offset 0"),
        ]
        for (input, message) in cases {
            let error = try #require(throws: FleetTripsError(.invalidInputText)) {
                try BinaryForm.base64.bytes(from: Self.text(input))
            }
            #expect(error.message == message, "\(input)")
            #expect(error.description == "invalid input text: " + message)
        }
    }

    @Test("reads hex in either case, skipping whitespace")
    func hex() throws {
        #expect(try BinaryForm.hex.bytes(from: Self.text("0a 14\nFF\tc3")) == [0x0a, 0x14, 0xff, 0xc3])
        #expect(try BinaryForm.hex.bytes(from: Self.text("")) == [])
    }

    @Test("says which hex character is wrong, or that a digit is missing")
    func hexErrors() throws {
        let bad = try #require(throws: FleetTripsError(.invalidInputText)) {
            try BinaryForm.hex.bytes(from: Self.text("0a 1g"))
        }
        #expect(bad.message == "'g' at text offset 4 is not a hex digit")
        let odd = try #require(throws: FleetTripsError(.invalidInputText)) {
            try BinaryForm.hex.bytes(from: Self.text("0a1"))
        }
        #expect(odd.message == "hex text has an odd number of digits (3); each byte takes two")
    }

    @Test("writes raw bytes as they are, and text forms on a line of their own")
    func output() {
        #expect(BinaryForm.raw.output(for: [0xfb, 0xff, 0]) == [0xfb, 0xff, 0])
        #expect(BinaryForm.base64.output(for: [0xfb, 0xff]) == Self.text("+/8=\n"))
        #expect(BinaryForm.base64.output(for: Self.text("hello")) == Self.text("aGVsbG8=\n"))
        #expect(BinaryForm.base64.output(for: Self.text("hel")) == Self.text("aGVs\n"))
        #expect(BinaryForm.base64.output(for: []) == Self.text("\n"))
        #expect(BinaryForm.hex.output(for: [0x0a, 0xff]) == Self.text("0aff\n"))
    }

    @Test("reads back what it writes", arguments: [BinaryForm.base64, .hex])
    func roundTrip(form: BinaryForm) throws {
        for count in 0..<10 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 97 + 250) }
            #expect(try form.bytes(from: form.output(for: bytes)) == bytes)
        }
    }
}
