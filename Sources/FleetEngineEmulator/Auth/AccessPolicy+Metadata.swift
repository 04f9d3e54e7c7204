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
        try authorize(method: method, tripNames: tripNames, authorization: Self.authorization(in: metadata))
    }

    /// The call's token header: the first `authorization` value of `metadata`, nil when there is none.
    static func authorization(in metadata: Metadata) -> String? {
        metadata[stringValues: authorizationKey].first(where: { _ in true })
    }
}
