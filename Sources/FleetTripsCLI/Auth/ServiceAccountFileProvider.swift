import FleetEngineAuth
import FleetEngineClient
import FleetTripsInput
import Synchronization

/// Mints server tokens with the service account key file of `--service-account` or
/// `GOOGLE_APPLICATION_CREDENTIALS`: the file is read when the client first asks for a token, and
/// the tokens come from a `ServiceAccountTokenProvider` from then on.
final class ServiceAccountFileProvider: TokenProvider {
    /// The key file's path.
    let path: String
    /// Where the path came from (`--service-account`, `GOOGLE_APPLICATION_CREDENTIALS`), for messages.
    let origin: String
    private let loaded = Mutex<ServiceAccountTokenProvider?>(nil)

    /// A provider for the key file at `path`, named by `origin`.
    init(path: String, origin: String) {
        self.path = path
        self.origin = origin
    }

    /// A server token minted with the key.
    ///
    /// - Throws: ``FleetTripsError/Code/tokenUnavailable`` when the file is not a service account
    ///   key; the client reports it as UNAUTHENTICATED. The message names the file and the field
    ///   at fault, never the key.
    func token(for request: TokenRequest) async throws -> FleetEngineToken {
        let provider = try loaded.withLock { loaded throws(FleetTripsError) -> ServiceAccountTokenProvider in
            if let loaded { return loaded }
            do throws(ServiceAccountKeyError) {
                let provider = ServiceAccountTokenProvider(serviceAccount: try ServiceAccountKey(contentsOfFile: path))
                loaded = provider
                return provider
            } catch {
                throw FleetTripsError(code: .tokenUnavailable, message: "\(origin): \(error.message)")
            }
        }
        return try await provider.token(for: request)
    }
}
