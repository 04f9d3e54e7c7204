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
    public var dataDirectory: String?
    /// Faults to inject.
    public var faults = FaultPlan()

    /// A configuration with an access policy and every other setting at its default.
    public init(accessPolicy: AccessPolicy) {
        self.accessPolicy = accessPolicy
    }
}
