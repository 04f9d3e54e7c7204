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

    /// A configuration with an access policy and every other setting at its default.
    public init(accessPolicy: AccessPolicy) {
        self.accessPolicy = accessPolicy
    }
}
