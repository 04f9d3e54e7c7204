#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a host stays on this machine: the one case where plaintext HTTP/2 keeps a bearer
/// token from the network.
enum LoopbackHost {
    /// Whether `host` names this machine's loopback interface: `localhost` or a name under it (RFC
    /// 6761 section 6.3 keeps them on loopback), an IPv4 address in 127.0.0.0/8 (RFC 1122 section
    /// 3.2.1.3), `::1` in any spelling, or an IPv4-mapped IPv6 address of a loopback IPv4 address.
    /// Any other name counts as not loopback, whatever it resolves to now.
    static func contains(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, name, &ipv4) == 1 {
            return withUnsafeBytes(of: &ipv4) { $0.first } == 127
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, name, &ipv6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &ipv6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }
}
