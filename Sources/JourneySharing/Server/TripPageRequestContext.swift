public import Hummingbird
public import NIOCore

/// A request context that knows the peer's address, which ``TripPages`` needs to serve loopback
/// viewers only: use it for an application of its own, or give your own context
/// `RemoteAddressRequestContext`.
public struct TripPageRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's storage for the request.
    public var coreContext: CoreRequestContextStorage
    /// The peer's address; nil when the channel has none.
    public let remoteAddress: SocketAddress?

    /// The context of a request that came on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension SocketAddress {
    /// Whether the address is this machine's own: 127.0.0.0/8, ::1, either mapped into IPv6, or a
    /// Unix domain socket.
    var isLoopback: Bool {
        switch self {
        case .v4(let address):
            return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff
            return mapped && bytes[12] == 127
        case .unixDomainSocket:
            return true
        }
    }
}
