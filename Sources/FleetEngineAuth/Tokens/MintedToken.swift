public import FleetEngineCodec
import Foundation

/// A token just minted, with its lifetime as the minter's clock read it: what a caller that keeps
/// the token needs to know when to mint the next.
///
/// Its description never shows the token.
public struct MintedToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The JWT in compact serialization.
    public var value: String
    /// `iat`, in whole seconds.
    public var issuedAt: Timestamp
    /// `exp`, in whole seconds.
    public var expiresAt: Timestamp

    /// A token and its times.
    public init(value: String, issuedAt: Timestamp, expiresAt: Timestamp) {
        self.value = value
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }

    /// `token (redacted, N characters) expiring at <exp> s`.
    public var description: String {
        "token (redacted, \(value.utf8.count) characters) expiring at \(expiresAt.seconds) s"
    }

    /// The ``description``.
    public var debugDescription: String { description }
}

extension TokenMinter {
    /// A token for `role`, valid from now for ``lifetime``, with its `iat` and `exp`.
    ///
    /// - Throws: as ``mint(_:)``.
    public func mintedToken(for role: TokenRole) throws(JWTError) -> MintedToken {
        let claims = try claims(for: role)
        return MintedToken(
            value: try sign(claims),
            issuedAt: Timestamp(seconds: Self.wholeSeconds(claims.issuedAt), nanos: 0),
            expiresAt: Timestamp(seconds: Self.wholeSeconds(claims.expiresAt), nanos: 0)
        )
    }

    private static func wholeSeconds(_ date: Date?) -> Int64 {
        Int64((date?.timeIntervalSince1970 ?? 0).rounded(.down))
    }
}
