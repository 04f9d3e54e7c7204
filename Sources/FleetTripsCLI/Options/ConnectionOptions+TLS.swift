import ArgumentParser
import FleetEngineClient
import FleetTripsInput
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ConnectionOptions {
    /// The largest `--cacert` file read: far above a system's whole CA bundle (about 200 KiB).
    static let maxCACertBytes = 16 << 20

    /// Refuses `--cacert` or `--server-name` with `--plaintext` (where they would do nothing), an
    /// empty one, a `--server-name` that is not a host name (an IP address is checked as the
    /// `--endpoint` host instead, and the client would refuse it only after parsing), an
    /// `--authority` that is not `host[:port]` or, over TLS, whose host names another certificate
    /// than `--server-name` does (``tlsServerName()``), and a `--cacert` file that cannot be read or
    /// holds no PEM certificate: each is the caller's to fix, said before any connection.
    func validateTLS() throws {
        if plaintext, caCert != nil || serverName != nil {
            throw ValidationError("--cacert and --server-name are for TLS; leave them out with --plaintext")
        }
        if let serverName {
            guard !serverName.isEmpty else { throw ValidationError("--server-name needs a host name") }
            guard !Self.isIPAddress(serverName) else {
                throw ValidationError(
                    "--server-name '\(serverName)' is an IP address, not a host name: to check the certificate "
                        + "for an address, give it as the --endpoint host and leave out --server-name")
            }
            guard serverName.utf8.allSatisfy(Self.isHostNameByte) else {
                throw ValidationError(
                    "--server-name '\(serverName)' is not a host name: give letters, digits, '-' and '.', "
                        + "e.g. localhost")
            }
        }
        _ = try tlsServerName()
        if let caCert {
            guard !caCert.isEmpty, caCert != "-" else {
                throw ValidationError("--cacert needs the path of a PEM file")
            }
            do throws(FleetTripsError) {
                _ = try Self.certificates(inPEMFile: caCert)
            } catch {
                throw ValidationError(error.message)
            }
        }
    }

    /// The name TLS checks the server's certificate for, when it is not the `--endpoint` host:
    /// `--server-name`, or the host of `--authority` (grpc-go's transport credentials take the
    /// authority's host, without its port, as the server name; so does grpcurl).
    ///
    /// An `--authority` host that is an IP address is checked as the `--endpoint` host is, and so
    /// only when it is that host: the client checks a certificate's IP addresses only for the
    /// address it connects to.
    ///
    /// - Throws: `ValidationError` for an `--authority` that is not `host[:port]`, one whose host
    ///   differs from `--server-name` (grpcurl refuses `-authority` and `-servername` that differ),
    ///   and, over TLS, one whose host is another IP address than the `--endpoint` host.
    func tlsServerName() throws(ValidationError) -> String? {
        guard let authority else { return serverName }
        let host = try ClientConfiguration.Endpoint.parsingArgument(authority, option: "--authority").host
        if plaintext { return nil }
        if let serverName, serverName != host {
            throw ValidationError(
                "--authority '\(authority)' and --server-name '\(serverName)' name different servers; give only "
                    + "--authority, which sets both the TLS server name and :authority")
        }
        guard Self.isIPAddress(host) else { return host }
        let endpointHost = try ClientConfiguration.Endpoint.parsingArgument(endpoint).host
        guard host == endpointHost else {
            throw ValidationError(
                "--authority '\(authority)' names the IP address \(host), but over TLS a certificate is checked "
                    + "for an IP address only as the --endpoint host; give a host name, or --plaintext")
        }
        return nil
    }

    /// How the client secures its connection: plaintext with `--plaintext`; otherwise TLS that
    /// trusts the certificates of `--cacert` (the system's roots without it) and checks the
    /// certificate for ``tlsServerName()`` (the endpoint's host without one).
    ///
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` when the `--cacert` file cannot be read
    ///   or holds no PEM certificate (``validateTLS()`` has said so already, unless the file
    ///   changed since); `ValidationError` when ``tlsServerName()`` throws it.
    func transportSecurity() throws -> ClientConfiguration.TransportSecurity {
        if plaintext { return .plaintext }
        var trustRoots = NIOSSLTrustRoots.default
        if let caCert { trustRoots = .certificates(try Self.certificates(inPEMFile: caCert)) }
        return .tls(trustRoots: trustRoots, serverHostname: try tlsServerName())
    }

    /// The certificates of the PEM file at `path`, at least one.
    ///
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` naming `--cacert`, the path and the
    ///   reason.
    static func certificates(inPEMFile path: String) throws(FleetTripsError) -> [NIOSSLCertificate] {
        let bytes: [UInt8]
        do throws(FleetTripsError) {
            bytes = try InputFile(path: path).readAll(atMost: maxCACertBytes)
        } catch {
            throw FleetTripsError(code: .unreadableInput, message: "--cacert: \(error.message)")
        }
        guard bytes.count <= maxCACertBytes else {
            throw FleetTripsError(
                code: .unreadableInput, message: "--cacert: '\(path)' is larger than \(maxCACertBytes >> 20) MiB")
        }
        do {
            return try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw FleetTripsError(
                code: .unreadableInput,
                message: "--cacert: '\(path)' holds no PEM certificate that can be read (-----BEGIN CERTIFICATE-----)")
        }
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    private static func isIPAddress(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
    }

    /// Whether `byte` may be in a DNS host name: an ASCII letter or digit, `-`, `.` or `_`.
    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
