import ArgumentParser
import FleetEngineClient

extension ClientConfiguration.Endpoint {
    /// The port of an endpoint given without one: HTTPS's, which Fleet Engine listens on.
    static let defaultPort = 443

    /// The endpoint a command-line argument names: `host:port`, `[IPv6 address]:port` (RFC 3986
    /// section 3.2.2 puts an IPv6 literal in brackets), or either without `:port` for port 443.
    ///
    /// - Parameter option: the option the text was given with, which the errors name.
    /// - Throws: `ValidationError` for an empty host, a host with a character no DNS name or IP
    ///   address has (RFC 3986's unreserved characters, and `:` and `%` in brackets), an IPv6
    ///   address outside brackets, or a port that is not a number from 1 to 65535.
    static func parsingArgument(_ text: String, option: String = "--endpoint") throws(ValidationError) -> Self {
        let host: Substring
        let portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ValidationError("\(option) '\(text)' has no ']' after its IPv6 address")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if rest.isEmpty {
                portText = nil
            } else if rest.hasPrefix(":") {
                portText = rest.dropFirst()
            } else {
                throw ValidationError("\(option) '\(text)' has '\(rest)' after ']' where ':port' should be")
            }
            guard host.contains(":") else {
                throw ValidationError("\(option) '\(text)': only an IPv6 address goes in brackets")
            }
        } else {
            let colons = text.count(where: { $0 == ":" })
            if colons > 1 {
                throw ValidationError(
                    "\(option) '\(text)': put an IPv6 address in brackets, e.g. [::1]:50051")
            }
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text[...]
                portText = nil
            }
        }
        guard !host.isEmpty else {
            throw ValidationError("\(option) '\(text)' has no host; give host:port, e.g. 127.0.0.1:50051")
        }
        let bracketed = text.hasPrefix("[")
        if let bad = host.first(where: { !isHostCharacter($0, bracketed: bracketed) }) {
            throw ValidationError(
                "\(option) '\(text)': '\(bad)' cannot be in a host; give a DNS name or an IP address, "
                    + "e.g. fleetengine.googleapis.com:443")
        }
        guard let portText else { return Self(host: String(host), port: defaultPort) }
        guard !portText.isEmpty, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let port = Int(portText), (1...65535).contains(port)
        else {
            throw ValidationError("\(option) '\(text)': the port must be a number from 1 to 65535")
        }
        return Self(host: String(host), port: port)
    }

    /// Whether `character` may be in a host: an ASCII letter or digit, `-`, `.`, `_` or `~` (RFC
    /// 3986's unreserved characters), and in brackets also `:` and `%` (an IPv6 address and zone).
    private static func isHostCharacter(_ character: Character, bracketed: Bool) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        case UInt8(ascii: ":"), UInt8(ascii: "%"):
            return bracketed
        default:
            return false
        }
    }
}
