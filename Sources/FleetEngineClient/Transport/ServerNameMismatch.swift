/// The cause of a refused TLS connection whose certificate chain is trusted but which names
/// neither the host the client connects to nor a wildcard covering it among its DNS names.
///
/// The connection fails with UNAVAILABLE, as other certificate failures do, with this as the
/// cause.
struct ServerNameMismatch: Error, Sendable, CustomStringConvertible {
    /// The host name the client checked for.
    let hostname: String
    /// The certificate's DNS names (the first few, as the server sent them).
    let dnsNames: [String]
    /// How many DNS names the certificate has in all.
    let dnsNameCount: Int

    var description: String {
        if dnsNameCount == 0 {
            return "the server's certificate names no DNS host (IP addresses and the subject's common name "
                + "do not count for a host name), so it is not valid for \(hostname)"
        }
        let shown = dnsNames.map { "\"\($0)\"" }.joined(separator: ", ")
        let more = dnsNameCount > dnsNames.count ? " and \(dnsNameCount - dnsNames.count) more" : ""
        return "the server's certificate is not valid for \(hostname): its DNS names are \(shown)\(more)"
    }
}
