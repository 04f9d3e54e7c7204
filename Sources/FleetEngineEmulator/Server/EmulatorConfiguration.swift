/// How an emulator listens, authenticates and behaves.
public struct EmulatorConfiguration: Sendable {
    /// The address to listen on: an IP address, an IPv6 address in brackets, or a name this machine
    /// resolves (`localhost`); `127.0.0.1` by default.
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (read it from ``FleetEngineEmulator/listeningPort()``).
    public var port: Int = 0
    /// Who may call what (see ``AccessPolicy``).
    public var accessPolicy: AccessPolicy
    /// A PEM certificate chain and private key to serve TLS with; plaintext h2c when nil.
    public var tls: (certificateChainPEM: String, privateKeyPEM: String)?
    /// A folder to keep trips in across restarts (the trip store's journal); in memory when nil.
    /// Created 0700 when missing; its files are 0600 and opened without following a symbolic link
    /// (one in place of a file makes the emulator throw ``EmulatorError/Code/storageFailed``).
    public var dataDirectory: String?
    /// Faults to inject.
    public var faults = FaultPlan()
    /// The project's quota: at most this many TripService calls a minute from all callers together,
    /// past which a call is RESOURCE_EXHAUSTED with a RetryInfo and a QuotaFailure; nil (the
    /// default) for no quota. 1 or more; change it while the emulator runs with
    /// ``FleetEngineEmulator/setQuotaPerMinute(_:)``.
    ///
    /// Enforced smoothly, as a token bucket that refills at a sixtieth of the quota per second and
    /// holds one second's worth of calls (at least one), not as a fixed window of a minute. It
    /// counts the calls of all six methods together, the calls that earlier checks refused aside
    /// (see ``QuotaUsage``): Fleet Engine keeps one quota per kind of request (9,000 reads such as
    /// GetTrip a minute, 6,000 searches, 3,000 creations by default), and a single one here keeps a
    /// test's count exact whatever its calls are.
    public var quotaPerMinute: Int?
    /// The most streams one connection may have open at once (HTTP/2's
    /// SETTINGS_MAX_CONCURRENT_STREAMS, RFC 9113 section 6.5.2); 100 by default, the figure RFC 9113
    /// recommends as a minimum and many gRPC servers use.
    public var maxConcurrentStreamsPerConnection = 100
    /// How long a connection with no open stream is kept before the emulator closes it (with a
    /// GOAWAY); 5 minutes by default.
    public var connectionIdleTimeout: Duration = .seconds(5 * 60)
    /// The largest request message accepted, in bytes; a larger one fails its call with
    /// RESOURCE_EXHAUSTED before it is decoded. 1 MiB by default: TripService requests carry at most
    /// one trip, and a trip as Fleet Engine sends it is tens of kilobytes (a route of a few thousand
    /// points stays well under).
    public var maxRequestMessageSize = 1024 * 1024
    /// The most memory, in bytes, decoding one request may take (`DecodingOptions.maxDecodedSize`);
    /// past it the call fails with RESOURCE_EXHAUSTED. 64 MiB by default, above what the largest
    /// accepted request of any shape needs to decode into a trip (a 1 MiB route of empty points
    /// takes about 40 MiB).
    public var maxDecodedRequestSize = 64 * 1024 * 1024

    /// A configuration with an access policy and every other setting at its default.
    public init(accessPolicy: AccessPolicy) {
        self.accessPolicy = accessPolicy
    }
}
