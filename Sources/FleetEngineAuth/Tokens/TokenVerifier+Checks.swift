import FleetEngineCodec
import Foundation

extension TokenVerifier {
    /// Picks the keys the header allows and checks the signature with them (RFC 7515 section 5.2,
    /// steps 6 to 8).
    ///
    /// A `kid` selects the keys with that id, and keys without an id stay candidates, so a single
    /// unnamed key accepts tokens whatever `kid` their signer wrote (google-auth writes the
    /// service account's key id). Among the candidates only keys of the `alg` the header names
    /// are tried (RFC 8725 section 3.1: the key, not the token, decides the algorithm).
    func checkSignature(of token: JSONWebToken) throws(JWTError) {
        let algorithm = token.header.algorithm
        guard algorithm.isSupported else {
            let why =
                algorithm == .none
                ? "an unsecured token proves nothing (RFC 8725 section 3.1)" : "only HS256 and RS256 are"
            throw JWTError(
                code: .unsupportedAlgorithm,
                message: "the token's algorithm \"\(JWTError.excerpt(algorithm.rawValue))\" is not accepted: \(why)",
                metadata: ["algorithm": JWTError.excerpt(algorithm.rawValue)]
            )
        }
        var candidates = keys
        if let keyID = token.header.keyID {
            candidates = keys.filter { $0.id == nil || $0.id == keyID }
            guard !candidates.isEmpty else {
                let quoted = JWTError.excerpt(keyID)
                throw JWTError(
                    code: .unknownKeyID,
                    message: "the token's key id \"\(quoted)\" names none of the \(keys.count) configured keys",
                    metadata: ["keyId": quoted]
                )
            }
        }
        let usable = candidates.filter { $0.algorithm == algorithm }
        guard !usable.isEmpty else {
            let types = Set(candidates.map(\.algorithm.rawValue)).sorted().joined(separator: ", ")
            throw JWTError(
                code: .algorithmMismatch,
                message: candidates.isEmpty
                    ? "no verification key is configured"
                    : "the token says \(algorithm) but the key(s) it may be checked with are \(types)",
                metadata: ["algorithm": algorithm.rawValue]
            )
        }
        guard usable.contains(where: { $0.isValidSignature(token.signature, for: token.signingInput) }) else {
            throw JWTError(
                code: .invalidSignature,
                message: "the \(algorithm) signature does not verify with the \(usable.count) candidate key(s)",
                metadata: ["algorithm": algorithm.rawValue]
            )
        }
    }

    /// `exp`, `nbf` and `iat` against the clock, with the leeway (RFC 7519 sections 4.1.4 to 4.1.6).
    func checkTimes(of claims: FleetEngineClaims) throws(JWTError) {
        let now = Self.date(clock.now())
        let leeway = Self.seconds(leeway)
        guard let expiresAt = claims.expiresAt else {
            throw JWTError(code: .missingExpiration, message: "the token has no \"exp\"; Fleet Engine requires one")
        }
        // Section 4.1.4: the current time must be *before* exp, so exp itself is already too late.
        if now >= expiresAt.addingTimeInterval(leeway) {
            throw JWTError(
                code: .expired,
                message: "the token expired at \(Self.format(expiresAt)); it is \(Self.format(now)) "
                    + "(leeway \(Self.format(leeway)))",
                metadata: ["expiredAt": Self.format(expiresAt), "now": Self.format(now)]
            )
        }
        for (claim, time) in [("nbf", claims.notBefore), ("iat", claims.issuedAt)] {
            guard let time, time > now.addingTimeInterval(leeway) else { continue }
            throw JWTError(
                code: .notYetValid,
                message: "the token's \"\(claim)\" is \(Self.format(time)), in the future: it is \(Self.format(now)) "
                    + "(leeway \(Self.format(leeway)))",
                metadata: ["claim": claim, claim: Self.format(time), "now": Self.format(now)]
            )
        }
    }

    /// `aud` must name the configured audience, compared exactly (RFC 7519 sections 2 and 4.1.3).
    func checkAudience(of claims: FleetEngineClaims) throws(JWTError) {
        guard let audience, !claims.audience.contains(audience) else { return }
        let named = claims.audience.prefix(4).map { "\"\(JWTError.excerpt($0))\"" }.joined(separator: ", ")
        throw JWTError(
            code: .audienceMismatch,
            message: claims.audience.isEmpty
                ? "the token has no \"aud\"; it must be \"\(audience)\""
                : "the token is for \(named), not \"\(audience)\"",
            metadata: ["expectedAudience": audience]
        )
    }

    static func date(_ stamp: Timestamp) -> Date {
        Date(timeIntervalSince1970: Double(stamp.seconds) + Double(stamp.nanos) / 1e9)
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int64(seconds)) s" : "\(seconds) s"
    }
}
