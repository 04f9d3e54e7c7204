import FleetEngineCodec
public import NIOSSL

/// How a ``FleetEngineClient`` reaches Fleet Engine and how it behaves on each call.
///
/// The defaults are Fleet Engine's: `fleetengine.googleapis.com:443` over TLS with the system's
/// trust roots, a 15 s deadline per call, and Google's published retry policy for TripService.
public struct ClientConfiguration: Sendable {
    /// Where the server is.
    public var endpoint: Endpoint
    /// TLS (the default) or plaintext HTTP/2 (h2c), for loopback and the emulator.
    public var transportSecurity: TransportSecurity
    /// The deadline of a call that does not set its own, sent as `grpc-timeout`. Retries happen
    /// within it.
    public var defaultDeadline: Duration
    /// Which failures are retried, how often and how long to wait. A backoff with a negative wait
    /// or a multiplier that is not a finite number above zero is refused when the client is made.
    public var retryPolicy: RetryPolicy
    /// How long to wait between connection attempts after one fails; checked as ``retryPolicy``'s.
    public var reconnectBackoff: Backoff
    /// Keepalive PINGs, so that a connection that died under calls in flight (a peer gone without
    /// a FIN, a NAT that dropped its mapping) fails them with UNAVAILABLE instead of leaving them to
    /// their deadlines; nil sends none.
    ///
    /// On by default (``Keepalive/default``): a PING once no frame has arrived for 10 s while calls
    /// are in flight, and the connection closed when its acknowledgement is 20 s late, so a dead
    /// connection is noticed within 40 s of its last frame (twice the interval and the timeout).
    public var keepalive: Keepalive?
    /// The `user-agent` sent with every call, before the gRPC part gRPC asks for.
    public var userAgent: String
    /// The largest response message accepted; larger ones fail the call with RESOURCE_EXHAUSTED.
    ///
    /// How much memory one response may take once decoded (``maxDecodedResponseSize`` bounds
    /// that on its own).
    public var maxResponseMessageSize: Int
    /// The most memory, in bytes, decoding one response may take (`DecodingOptions.maxDecodedSize`):
    /// a response that would take more fails the call with RESOURCE_EXHAUSTED, as gRPC fails an
    /// oversized message. The default, `DecodingOptions.defaultMaxDecodedSize` (600 MiB), is what
    /// Google's upb takes for the worst 4 MiB response; lower it against a server you do not trust.
    public var maxDecodedResponseSize: Int
    /// How long a connection attempt may take, TCP and TLS and the server's SETTINGS together.
    public var connectTimeout: Duration
    /// Values the client puts in each request's `header` (`RequestHeader`) where the caller left
    /// them empty.
    public var requestHeader: RequestHeaderDefaults
    /// Where the secrets of each TLS connection go, as NSS key log lines (the format of
    /// `SSLKEYLOGFILE`), so that a capture of the traffic can be decrypted; nil, the default,
    /// writes none. Used with either kind of TLS, ignored with plaintext.
    ///
    /// - Warning: The lines decrypt the traffic, tokens and trips included: set this only while
    ///   debugging, and keep what it writes as secret as the token. See ``TLSKeyLogSink``.
    public var tlsKeyLog: TLSKeyLogSink?
    /// The `:authority` of each call (RFC 9113 section 8.3.1): the host, and optionally the port,
    /// the server is asked to answer for; ``endpoint`` (`host:port`) when nil.
    ///
    /// It changes what the requests say, not where the client connects nor which name TLS checks
    /// the server's certificate for (``TransportSecurity/tls(trustRoots:serverHostname:)``'s
    /// `serverHostname`): a proxy or a test server reached at one address on behalf of another
    /// needs both set. A value that is empty or not visible ASCII is refused with INVALID_ARGUMENT
    /// when the client is made.
    public var authority: String?
    /// Request metadata sent with every call, before the call's own ``CallOptions/metadata``:
    /// lower-case names, `-bin` names with base64 values, checked as ``CallOptions/metadata`` is.
    ///
    /// A name or value that cannot be sent, a name the call layer writes itself (a pseudo-header,
    /// `te`, `content-type`, `user-agent`, any `grpc-` name) and `x-goog-request-params` are
    /// refused with INVALID_ARGUMENT when the client is made; `authorization` fails each call
    /// with INVALID_ARGUMENT when the token provider gave a token, as the call's own does. The
    /// errors name the field and the offending byte, never the value, which may be a credential.
    public var metadata: [(name: String, value: String)]

    /// Fleet Engine itself over TLS, with all defaults.
    public init(
        endpoint: Endpoint = .fleetEngine,
        transportSecurity: TransportSecurity = .tls()
    ) {
        self.endpoint = endpoint
        self.transportSecurity = transportSecurity
        self.defaultDeadline = .seconds(15)
        self.retryPolicy = .fleetEngine
        self.reconnectBackoff = Backoff(initial: .seconds(1), multiplier: 1.6, maximum: .seconds(30), jitter: 0.2)
        self.keepalive = .default
        self.userAgent = "swift-fleet-engine/\(FleetEngineClient.version)"
        self.maxResponseMessageSize = 4 * 1024 * 1024
        self.maxDecodedResponseSize = DecodingOptions.defaultMaxDecodedSize
        self.connectTimeout = .seconds(20)
        self.requestHeader = RequestHeaderDefaults()
        self.tlsKeyLog = nil
        self.authority = nil
        self.metadata = []
    }

    /// A plaintext (h2c) configuration for a server on this machine, such as `fleettrips serve`.
    public static func plaintext(host: String = "127.0.0.1", port: Int) -> ClientConfiguration {
        ClientConfiguration(endpoint: Endpoint(host: host, port: port), transportSecurity: .plaintext)
    }

    /// A server address.
    public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// A host name or IP address.
        public var host: String
        /// The TCP port, 1 to 65535; a client is not made with another.
        public var port: Int

        /// A host and port.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// `fleetengine.googleapis.com:443`.
        public static let fleetEngine = Endpoint(host: "fleetengine.googleapis.com", port: 443)

        /// `host:port`, with an IPv6 address in brackets; also the `:authority` of each call.
        public var description: String {
            host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// TLS or plaintext.
    public struct TransportSecurity: Sendable {
        enum Mode: Sendable {
            case plaintext
            case tls(TLSConfiguration, serverHostname: String?)
        }

        let mode: Mode

        /// HTTP/2 without TLS (h2c with prior knowledge), for loopback only.
        public static let plaintext = TransportSecurity(mode: .plaintext)

        /// TLS with ALPN `h2`, the system's trust roots unless `trustRoots` says otherwise, and the
        /// server's name checked against `serverHostname` (the endpoint's host when nil). A
        /// connection on which the server does not choose `h2` is refused.
        ///
        /// A host name is checked against the certificate's DNS names only (RFC 6125: a wildcard
        /// stands for one whole left-most label; IP addresses and the common name do not count); an
        /// endpoint given as an IP address, without `serverHostname`, against the certificate's IP
        /// addresses. `serverHostname` must be a host name: an IP address or an empty string is
        /// refused with INVALID_ARGUMENT when the client is made.
        public static func tls(
            trustRoots: NIOSSLTrustRoots = .default,
            serverHostname: String? = nil
        ) -> TransportSecurity {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = trustRoots
            configuration.applicationProtocols = ["h2"]
            configuration.minimumTLSVersion = .tlsv12
            return TransportSecurity(mode: .tls(configuration, serverHostname: serverHostname))
        }

        /// TLS with a configuration of the caller's; its `applicationProtocols` are set to `["h2"]`.
        /// With `.fullVerification` a host name is checked as ``tls(trustRoots:serverHostname:)``
        /// says; other `certificateVerification` modes are used as given. `serverHostname` is
        /// refused as there when it is an IP address or empty. A `keyLogCallback` of the
        /// configuration's own is kept, and called beside ``ClientConfiguration/tlsKeyLog``.
        public static func tls(_ configuration: TLSConfiguration, serverHostname: String? = nil) -> TransportSecurity {
            var configuration = configuration
            configuration.applicationProtocols = ["h2"]
            return TransportSecurity(mode: .tls(configuration, serverHostname: serverHostname))
        }

        /// Whether this is plaintext.
        public var isPlaintext: Bool {
            if case .plaintext = mode { return true }
            return false
        }
    }

    /// Keepalive PINGs (RFC 9113 section 6.7).
    ///
    /// The client looks at the connection every ``interval``: when no frame arrived since it last
    /// looked, and calls are in flight (or ``permitWithoutCalls``), it sends a PING, and closes the
    /// connection when the acknowledgement has not come ``timeout`` later, failing its calls with
    /// UNAVAILABLE. A connection that goes silent is therefore closed within twice the interval
    /// plus the timeout of its last frame; one that keeps answering is never probed.
    public struct Keepalive: Sendable, Hashable {
        /// The default: a PING after 10 s without frames while calls are in flight, a 20 s timeout;
        /// a dead connection is noticed within 40 s. gRPC servers (grpc-core's default policy)
        /// count a PING within 5 minutes of the last one, with no data sent in between, as a
        /// strike, and answer the third with GOAWAY (ENHANCE_YOUR_CALM): a call that the server
        /// leaves silent for over 30 s needs a longer interval, or none.
        public static let `default` = Keepalive(interval: .seconds(10), timeout: .seconds(20))

        /// How long the connection may go without a frame from the server before a PING is sent.
        public var interval: Duration
        /// How long to wait for its acknowledgement before closing the connection.
        public var timeout: Duration
        /// Whether to send PINGs while no call is in flight. Off by default: gRPC servers refuse
        /// frequent PINGs on idle connections (GOAWAY with ENHANCE_YOUR_CALM).
        public var permitWithoutCalls: Bool

        /// A PING every `interval` while calls are in flight (or always, with
        /// `permitWithoutCalls`), failing the connection when one is unanswered after `timeout`.
        /// Both must be above zero: a client is not made with either at or below it.
        public init(interval: Duration, timeout: Duration = .seconds(20), permitWithoutCalls: Bool = false) {
            self.interval = interval
            self.timeout = timeout
            self.permitWithoutCalls = permitWithoutCalls
        }
    }

    /// What the client fills into a request's `RequestHeader` where it is empty.
    public struct RequestHeaderDefaults: Sendable, Hashable {
        /// BCP-47 language code, e.g. `en-US`; empty leaves the field alone.
        public var languageCode: String
        /// CLDR region code, e.g. `US`; empty leaves the field alone.
        public var regionCode: String
        /// The SDK version reported to Fleet Engine.
        public var sdkVersion: String

        /// `en-US`, no region, and this library's version.
        public init(languageCode: String = "en-US", regionCode: String = "", sdkVersion: String? = nil) {
            self.languageCode = languageCode
            self.regionCode = regionCode
            self.sdkVersion = sdkVersion ?? "swift-fleet-engine/\(FleetEngineClient.version)"
        }
    }
}
