public import FleetEngineCodec
import Foundation

/// Makes Fleet Engine tokens: a server token for every trip, a consumer token for one trip, a
/// driver token for one vehicle, signed RS256 with a service account's key or, for local use,
/// HS256 or RS256 with any key.
///
/// ```swift
/// let minter = TokenMinter(serviceAccount: try ServiceAccountKey(contentsOfFile: "key.json"))
/// let token = try minter.mint(.consumer(tripID: "trip-1"))
/// ```
///
/// The output is deterministic for a given key, clock and claims (RS256 with PKCS#1 v1.5 padding
/// and HMAC both are): header and claims are compact JSON with sorted keys.
public struct TokenMinter: Sendable {
    /// The issuer and subject written when none is given.
    public static let defaultPrincipal = "fleettrips@localhost"

    /// The key that signs, and whose id goes in `kid`.
    public var signingKey: JWTSigningKey
    /// `iss`.
    public var issuer: String
    /// `sub`.
    public var subject: String
    /// `aud`.
    public var audience: String
    /// How long a token is valid: `exp` is `iat` plus this, in whole seconds.
    public var lifetime: Duration
    /// Where `iat` comes from.
    public var clock: any TimeSource
    /// The longest ``lifetime`` minting accepts; nil for no limit. One hour for a service account,
    /// as Fleet Engine refuses tokens that live longer.
    public var maximumLifetime: Duration?

    /// The longest life Fleet Engine accepts for a token: one hour.
    public static let fleetEngineMaximumLifetime: Duration = .seconds(3600)

    /// A minter.
    ///
    /// - Parameters:
    ///   - signingKey: the key to sign with.
    ///   - issuer: `iss`, `fleettrips@localhost` by default.
    ///   - subject: `sub`, `fleettrips@localhost` by default.
    ///   - audience: `aud`, Fleet Engine's by default.
    ///   - lifetime: how long tokens are valid, one hour by default.
    ///   - clock: the time source, the system's wall clock by default.
    public init(
        signingKey: JWTSigningKey,
        issuer: String = TokenMinter.defaultPrincipal,
        subject: String = TokenMinter.defaultPrincipal,
        audience: String = TokenVerifier.fleetEngineAudience,
        lifetime: Duration = .seconds(3600),
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.signingKey = signingKey
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.lifetime = lifetime
        self.clock = clock
        self.maximumLifetime = nil
    }

    /// A minter of the tokens Fleet Engine accepts from a service account: RS256 with its private
    /// key, `kid` its `private_key_id`, `iss` and `sub` its `client_email`, Fleet Engine's `aud`,
    /// and a lifetime of at most one hour (``maximumLifetime``).
    ///
    /// - Parameters:
    ///   - serviceAccount: the key to sign with.
    ///   - lifetime: how long tokens are valid, one hour (the most Fleet Engine accepts) by default.
    ///   - clock: the time source, the system's wall clock by default.
    public init(
        serviceAccount: ServiceAccountKey,
        lifetime: Duration = TokenMinter.fleetEngineMaximumLifetime,
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.init(
            signingKey: serviceAccount.signingKey,
            issuer: serviceAccount.clientEmail,
            subject: serviceAccount.clientEmail,
            lifetime: lifetime,
            clock: clock
        )
        self.maximumLifetime = Self.fleetEngineMaximumLifetime
    }

    /// The claims a token for `role` carries if minted now.
    ///
    /// The `authorization` claim is the role's (``TokenRole``): a server token names every trip and
    /// every vehicle (`"tripid": "*"`, `"vehicleid": "*"`), a consumer token its trip only, a
    /// driver token its vehicle only.
    ///
    /// - Throws: ``JWTError/Code/invalidClaims`` for an empty or `*` trip or vehicle id, or a
    ///   lifetime under a second, over ``maximumLifetime`` or past what a date can hold.
    public func claims(for role: TokenRole) throws(JWTError) -> FleetEngineClaims {
        switch role {
        case .consumer(let tripID) where tripID.isEmpty || tripID == TokenRole.wildcard:
            throw JWTError(
                code: .invalidClaims,
                message: "a consumer token needs the id of one trip; a server token is the one for every trip"
            )
        case .driver(let vehicleID) where vehicleID.isEmpty || vehicleID == TokenRole.wildcard:
            throw JWTError(
                code: .invalidClaims,
                message: "a driver token needs the id of one vehicle; a server token is the one for every vehicle"
            )
        default:
            break
        }
        let lifetimeSeconds = lifetime.components.seconds
        guard lifetimeSeconds >= 1 else {
            throw JWTError(code: .invalidClaims, message: "a token's lifetime must be at least one second")
        }
        if let maximumLifetime, lifetime > maximumLifetime {
            throw JWTError(
                code: .invalidClaims,
                message: "a lifetime of \(lifetimeSeconds) seconds is longer than the "
                    + "\(maximumLifetime.components.seconds) seconds Fleet Engine accepts",
                metadata: ["lifetimeSeconds": String(lifetimeSeconds)]
            )
        }
        // NumericDates are written as whole seconds (RFC 7519 section 2 allows fractions, but
        // verifiers such as google-auth compare integers).
        let issuedAt = clock.now().seconds
        let (expiresAt, overflow) = issuedAt.addingReportingOverflow(lifetimeSeconds)
        guard !overflow else {
            throw JWTError(code: .invalidClaims, message: "a lifetime of \(lifetimeSeconds) seconds has no expiry date")
        }
        return FleetEngineClaims(
            issuer: issuer,
            subject: subject,
            audience: [audience],
            issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(expiresAt)),
            tripID: role.tripIDClaim,
            vehicleID: role.vehicleIDClaim
        )
    }

    /// A token for `role`, valid from now for ``lifetime``, in compact serialization.
    ///
    /// - Throws: ``JWTError/Code/invalidClaims`` as ``claims(for:)``,
    ///   ``JWTError/Code/signingFailed`` when the crypto library fails.
    public func mint(_ role: TokenRole) throws(JWTError) -> String {
        try sign(claims(for: role))
    }

    /// A token carrying exactly `claims`, signed with ``signingKey`` (RFC 7515 section 5.1).
    ///
    /// - Throws: ``JWTError/Code/signingFailed`` when the crypto library fails.
    public func sign(_ claims: FleetEngineClaims) throws(JWTError) -> String {
        // Compact, with members in sorted order, as the claims are, so that a token is reproducible.
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("alg")
        writer.string(signingKey.algorithm.rawValue)
        if let id = signingKey.id {
            writer.key("kid")
            writer.string(id)
        }
        writer.key("typ")
        writer.string("JWT")
        writer.endObject()
        let header = writer.takeBytes()
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(try claims.jsonBytes())
        let signature = try signingKey.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}
