public import FleetEngineCodec
public import FleetEngineStatus
import Foundation

/// Checks Fleet Engine bearer tokens as Fleet Engine does: signature, times, audience, and that the
/// token is a TripService token (it names a trip).
///
/// The order follows RFC 7519 section 7.2: the header and the signature first, then the claims, so
/// a token someone altered is refused for its signature whatever the altered claims say.
///
/// ```swift
/// let verifier = TokenVerifier(keys: [try .rs256(publicKeyPEM: pem)])
/// let claims = try verifier.verify(authorization: "Bearer eyJ...")
/// ```
public struct TokenVerifier: Sendable {
    /// The audience Fleet Engine's tokens are made for.
    public static let fleetEngineAudience = "https://fleetengine.googleapis.com/"

    /// The keys a signature may verify with.
    public var keys: [JWTKey]
    /// The audience a token's `aud` must name; nil not to check `aud`.
    public var audience: String?
    /// How far the clocks of the token's maker and of the verifier may disagree: a token counts as
    /// expired only `leeway` after `exp`, and `nbf` and `iat` may lie up to `leeway` in the future.
    public var leeway: Duration
    /// Where the current time comes from.
    public var clock: any TimeSource

    /// A verifier.
    ///
    /// - Parameters:
    ///   - keys: the keys a signature may verify with; a token's `kid`, if any, selects among them.
    ///   - audience: the audience to require, Fleet Engine's by default; nil not to check `aud`.
    ///   - leeway: the clock skew to allow, 30 seconds by default.
    ///   - clock: the time source, the system's wall clock by default.
    public init(
        keys: [JWTKey],
        audience: String? = TokenVerifier.fleetEngineAudience,
        leeway: Duration = .seconds(30),
        clock: any TimeSource = SystemTimeSource()
    ) {
        self.keys = keys
        self.audience = audience
        self.leeway = leeway
        self.clock = clock
    }

    /// Checks the value of an `authorization` header and returns the token's claims.
    ///
    /// - Parameter headerValue: the header's value, `Bearer <JWT>`; nil when the call had none.
    /// - Throws: UNAUTHENTICATED with an `ErrorInfo` whose reason is the failure's
    ///   ``JWTError/Code/reason`` (`MISSING_TOKEN`, `TOKEN_EXPIRED`, `INVALID_SIGNATURE`, ...).
    public func verify(authorization headerValue: String?) throws(FleetEngineError) -> FleetEngineClaims {
        do throws(JWTError) {
            return try verify(token: Self.bearerToken(from: headerValue))
        } catch {
            throw FleetEngineError.rejectedToken(error)
        }
    }

    /// Checks a compact JWS and returns its claims.
    ///
    /// - Throws: a ``JWTError`` saying what is wrong with the token.
    public func verify(token: String) throws(JWTError) -> FleetEngineClaims {
        let parsed = try JSONWebToken(compact: token)
        try checkSignature(of: parsed)
        let claims = try parsed.claims()
        try checkTimes(of: claims)
        try checkAudience(of: claims)
        guard let tripID = claims.tripID, !tripID.isEmpty else {
            throw JWTError(
                code: .missingTripID,
                message: "the token has no \"authorization\": {\"tripid\": ...} claim, so it grants nothing on "
                    + "TripService (a consumer token names its trip, a server token \"*\")"
            )
        }
        return claims
    }

    /// The token of an `Authorization: Bearer <token>` value (RFC 6750 section 2.1).
    ///
    /// The scheme is matched without regard to case (RFC 9110 section 11.1) and may be followed by
    /// any number of spaces; whitespace around the value is ignored, as HTTP trims field values
    /// (RFC 9110 section 5.5).
    ///
    /// - Throws: ``JWTError/Code/missingToken`` for no value or an empty credential,
    ///   ``JWTError/Code/unsupportedScheme`` for another scheme.
    public static func bearerToken(from headerValue: String?) throws(JWTError) -> String {
        let value = headerValue.map { String($0[...].trimmingFieldWhitespace()) } ?? ""
        guard !value.isEmpty else {
            throw JWTError(code: .missingToken, message: "the call has no authorization header with a bearer token")
        }
        let scheme = value.prefix { $0 != " " && $0 != "\t" }
        guard scheme.lowercased() == "bearer" else {
            // The scheme is not echoed: a client that forgot "Bearer " would see its token here.
            throw JWTError(
                code: .unsupportedScheme,
                message: "the authorization header does not use the Bearer scheme (RFC 6750 section 2.1)"
            )
        }
        let token = String(value.dropFirst(scheme.count).trimmingFieldWhitespace())
        guard !token.isEmpty else {
            throw JWTError(code: .missingToken, message: "the authorization header says Bearer but carries no token")
        }
        return token
    }
}
