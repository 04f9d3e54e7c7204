import Testing

@testable import FleetEngineClient

@Suite("The routing header's value: percent-encoding as Google's clients write it")
struct RoutingHeaderTests {
    @Test(
        "unreserved characters stay, every other byte becomes %XX of its UTF-8",
        arguments: [
            ("test-project", "test-project"),
            ("a.b_c~d-9Z", "a.b_c~d-9Z"),
            ("a b", "a%20b"),
            ("providers/p", "providers%2Fp"),
            ("ü", "%C3%BC"),
            ("x?y#z%", "x%3Fy%23z%25"),
            ("", ""),
        ])
    func percentEncoding(text: String, encoded: String) {
        #expect(FleetEngineClient.percentEncoded(text) == encoded)
    }
}
