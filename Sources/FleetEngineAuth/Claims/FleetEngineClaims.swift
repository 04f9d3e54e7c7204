public import Foundation

/// The claims of a Fleet Engine token: the registered JWT claims (RFC 7519 section 4.1) and Fleet
/// Engine's private `authorization` claim.
///
/// The layout Fleet Engine expects:
///
/// ```json
/// {"iss": "...", "sub": "...", "aud": "https://fleetengine.googleapis.com/",
///  "iat": 1767225600, "exp": 1767229200, "authorization": {"tripid": "trip-1"}}
/// ```
///
/// Every field is optional here, as in a JWT; ``TokenVerifier`` decides which ones a token must have.
public struct FleetEngineClaims: Sendable, Hashable {
    /// `iss`: who made the token (a service account's email for Google-signed tokens).
    public var issuer: String?
    /// `sub`: whom the token is about.
    public var subject: String?
    /// `aud`: the recipients the token is for. RFC 7519 section 4.1.3 allows one string or an
    /// array; either way it is a list here, empty when the claim is absent.
    public var audience: [String]
    /// `iat`: when the token was made.
    public var issuedAt: Date?
    /// `exp`: when the token stops being valid.
    public var expiresAt: Date?
    /// `nbf`: when the token starts being valid.
    public var notBefore: Date?
    /// `authorization.tripid`: the trip the token is for, or `*` for every trip.
    public var tripID: String?
    /// `authorization.vehicleid`: the vehicle the token is for, or `*` for every vehicle.
    public var vehicleID: String?

    /// Claims from their values.
    public init(
        issuer: String? = nil,
        subject: String? = nil,
        audience: [String] = [],
        issuedAt: Date? = nil,
        expiresAt: Date? = nil,
        notBefore: Date? = nil,
        tripID: String? = nil,
        vehicleID: String? = nil
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.tripID = tripID
        self.vehicleID = vehicleID
    }

    /// Whether the token covers every trip (`"tripid": "*"`).
    public var isServerToken: Bool { tripID == TokenRole.wildcard }

    /// The role the `authorization` claim gives: by a non-empty `tripid` a server or consumer
    /// token, else by a `vehicleid` naming one vehicle a driver token; nil otherwise.
    public var role: TokenRole? {
        if let tripID, !tripID.isEmpty {
            return tripID == TokenRole.wildcard ? .server : .consumer(tripID: tripID)
        }
        guard let vehicleID, !vehicleID.isEmpty, vehicleID != TokenRole.wildcard else { return nil }
        return .driver(vehicleID: vehicleID)
    }
}
