public import FleetEngineAuth
import FleetEngineGRPCCore
public import FleetEngineStatus
public import GRPCCore

extension AccessPolicy {
    /// The metadata key of the bearer token (gRPC carries HTTP's `Authorization` header under its
    /// lower-case name, RFC 9113 section 8.2.1).
    public static let authorizationKey = "authorization"

    /// Checks one call from its request metadata: the first `authorization` value is the token.
    ///
    /// - Returns: the token's claims, or nil under ``noAuth``.
    /// - Throws: as ``authorize(method:tripNames:authorization:)``.
    @discardableResult
    public func authorize(
        method: TripServiceMethod,
        tripNames: [String],
        metadata: Metadata
    ) throws(FleetEngineError) -> FleetEngineClaims? {
        let header = metadata[stringValues: Self.authorizationKey].first(where: { _ in true })
        return try authorize(method: method, tripNames: tripNames, authorization: header)
    }
}
