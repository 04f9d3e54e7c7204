import GRPCNIOTransportHTTP2
import NIOCore

extension FleetEngineEmulator {
    /// The address an emulator listens on, from its configuration's host and port.
    ///
    /// The host is an IPv4 or IPv6 address, an IPv6 address in brackets as it is written with a
    /// port (`[::1]`), or a name this machine resolves (`localhost`: the first address it
    /// resolves to). Resolving a name may block while the system asks its resolver.
    ///
    /// - Throws: ``EmulatorError`` for a port outside 0 to 65535 or a host that resolves to no
    ///   address, naming the host or port.
    static func listeningAddress(host: String, port: Int) throws(EmulatorError) -> GRPCNIOTransportCore.SocketAddress {
        guard (0...65_535).contains(port) else {
            throw EmulatorError(
                .invalidConfiguration, "the emulator cannot listen on port \(port): a port is from 0 to 65535")
        }
        var name = Substring(host)
        if name.count > 2, name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        let resolved: NIOCore.SocketAddress
        do {
            resolved = try NIOCore.SocketAddress.makeAddressResolvingHost(String(name), port: port)
        } catch {
            throw EmulatorError(
                .invalidConfiguration, "the emulator cannot listen on \"\(host)\": no address of that name (\(error))",
                cause: error)
        }
        switch resolved {
        case .v4:
            if let address = resolved.ipAddress { return .ipv4(host: address, port: port) }
        case .v6:
            if let address = resolved.ipAddress { return .ipv6(host: address, port: port) }
        case .unixDomainSocket:
            break
        }
        throw EmulatorError(
            .invalidConfiguration,
            "the emulator cannot listen on \"\(host)\": it resolves to \(resolved), not an IP address")
    }
}
