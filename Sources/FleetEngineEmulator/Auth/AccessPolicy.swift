public import FleetEngineAuth
public import FleetEngineStatus

/// Who may call which TripService method on which trip: Fleet Engine's rules, or none at all.
///
/// With ``verify(_:)`` a call needs `authorization: Bearer <JWT>` with a token the
/// `TokenVerifier` (of `FleetEngineAuth`) accepts, and then:
///
/// - a server token (`"tripid": "*"`) may call every method on every trip;
/// - a consumer token (`"tripid": "<trip id>"`) may only read its own trip: a write method
///   (``TripServiceMethod/isWrite``), SearchTrips (which spans trips) or another trip is
///   PERMISSION_DENIED.
///
/// With ``noAuth`` (`--no-auth`) every call is allowed and headers are not looked at.
public struct AccessPolicy: Sendable {
    private enum Mode: Sendable {
        case noAuth
        case verify(TokenVerifier)
    }

    private let mode: Mode

    private init(_ mode: Mode) {
        self.mode = mode
    }

    /// Allows every call, with or without a token.
    public static let noAuth = AccessPolicy(.noAuth)

    /// Requires a token `verifier` accepts, and applies Fleet Engine's role rules.
    public static func verify(_ verifier: TokenVerifier) -> AccessPolicy {
        AccessPolicy(.verify(verifier))
    }

    /// The verifier, or nil for ``noAuth``.
    public var verifier: TokenVerifier? {
        switch mode {
        case .noAuth: nil
        case .verify(let verifier): verifier
        }
    }

    /// Whether calls need a token.
    public var requiresToken: Bool { verifier != nil }

    /// Checks one call that concerns at most one trip.
    ///
    /// - Parameters:
    ///   - method: the RPC.
    ///   - tripName: the name the request carries: `providers/{provider}/trips/{trip_id}`, or for
    ///     ReportBillableTrip `providers/{provider}/billableTrips/{billable_trip}`, whose billable
    ///     trip id is the trip id; nil for a call that names none (SearchTrips).
    ///   - authorization: the `authorization` header's value; nil when there was none.
    /// - Returns: the token's claims, or nil under ``noAuth``.
    /// - Throws: UNAUTHENTICATED when the token is missing or refused, PERMISSION_DENIED when it
    ///   does not cover the call; each with an `ErrorInfo` naming the reason and the method.
    @discardableResult
    public func authorize(
        method: TripServiceMethod,
        tripName: String?,
        authorization: String?
    ) throws(FleetEngineError) -> FleetEngineClaims? {
        try authorize(method: method, tripNames: tripName.map { [$0] } ?? [], authorization: authorization)
    }

    /// Checks only the call's token (signature, times, audience), with the error
    /// ``authorize(method:tripNames:authorization:)`` gives for it: what can be checked from the
    /// headers, before the request is decoded. The claims it returns go to
    /// ``authorize(method:tripNames:claims:)`` once the request's trip names are known, so the token is
    /// verified once a call.
    ///
    /// - Returns: the token's claims, or nil under ``noAuth``.
    func authenticate(method: TripServiceMethod, authorization: String?) throws(FleetEngineError) -> FleetEngineClaims?
    {
        guard case .verify(let verifier) = mode else { return nil }
        do throws(JWTError) {
            return try verifier.verify(token: TokenVerifier.bearerToken(from: authorization))
        } catch {
            throw FleetEngineError.tokenRejected(error, method: method)
        }
    }

    /// Checks one call that concerns any number of trips; a consumer token must cover each.
    ///
    /// - Returns: the token's claims, or nil under ``noAuth``.
    /// - Throws: as ``authorize(method:tripName:authorization:)``.
    @discardableResult
    public func authorize(
        method: TripServiceMethod,
        tripNames: [String],
        authorization: String?
    ) throws(FleetEngineError) -> FleetEngineClaims? {
        guard let claims = try authenticate(method: method, authorization: authorization) else { return nil }
        try authorize(method: method, tripNames: tripNames, claims: claims)
        return claims
    }

    /// Checks that verified `claims` cover a call: what ``authorize(method:tripNames:authorization:)``
    /// checks after the token itself.
    ///
    /// - Throws: PERMISSION_DENIED when the token does not cover the call, with an `ErrorInfo` naming
    ///   the reason and the method.
    func authorize(method: TripServiceMethod, tripNames: [String], claims: FleetEngineClaims) throws(FleetEngineError) {
        guard case .consumer(let claimedTripID) = claims.role else { return }
        let tokenTripID = JWTError.excerpt(claimedTripID)
        if method.isWrite {
            throw FleetEngineError.accessDenied(
                reason: "CONSUMER_ROLE_WRITE",
                message: "a consumer token may not call \(method.name); it needs a server token (tripid \"*\")",
                method: method
            )
        }
        if method.spansTrips {
            throw FleetEngineError.accessDenied(
                reason: "CONSUMER_ROLE_SEARCH",
                message: "a consumer token may not call \(method.name), which spans trips; it needs a server token "
                    + "(tripid \"*\")",
                method: method
            )
        }
        if tripNames.isEmpty {
            throw FleetEngineError.accessDenied(
                reason: "TRIP_ID_MISMATCH",
                message: "the request names no trip, and a consumer token covers only trip \"\(tokenTripID)\"",
                method: method,
                metadata: ["tokenTripId": tokenTripID]
            )
        }
        for name in tripNames where Self.tripID(in: name, method: method) != claimedTripID {
            throw FleetEngineError.accessDenied(
                reason: "TRIP_ID_MISMATCH",
                message: "the token is for trip \"\(tokenTripID)\", not for \(name)",
                method: method,
                metadata: ["tokenTripId": tokenTripID, "trip": name]
            )
        }
    }

    /// The `{trip_id}` of `providers/{provider}/trips/{trip_id}`, or for ReportBillableTrip the
    /// `{billable_trip}` of `providers/{provider}/billableTrips/{billable_trip}` (the emulator
    /// reports a trip under its own id); nil for text of another shape (which then matches no
    /// consumer token; checking the name is the service's job).
    static func tripID(in name: String, method: TripServiceMethod) -> String? {
        let collection = method == .reportBillableTrip ? "billableTrips" : "trips"
        // By Unicode scalars: a trip id may begin with a combining mark (see TripName).
        let parts = name.unicodeScalars.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == "providers", parts[2] == collection, !parts[3].isEmpty else {
            return nil
        }
        return parts[3]
    }
}
