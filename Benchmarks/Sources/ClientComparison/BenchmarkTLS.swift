/// TLS for a benchmark's client: the server's certificate to trust, the name it was issued to, and
/// where the client writes its key log (so that a capture of the load can be decrypted).
public struct BenchmarkTLS: Sendable {
    /// A client that cannot take these options (grpc-swift's caller here speaks plaintext only).
    public struct Unsupported: Error, CustomStringConvertible {
        public init() {}
        public var description: String { "TLS is measured with our client only" }
    }

    /// A PEM file of the certificates to trust.
    public var caCertificatePath: String
    /// The name to check the server's certificate against.
    public var serverHostname: String
    /// Where the key log lines go; nil writes none.
    public var keyLogPath: String?

    public init(caCertificatePath: String, serverHostname: String, keyLogPath: String?) {
        self.caCertificatePath = caCertificatePath
        self.serverHostname = serverHostname
        self.keyLogPath = keyLogPath
    }
}
