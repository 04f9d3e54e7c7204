import Crypto
import FleetEngineCodec
public import Foundation

/// Signs and checks the tokens of share links: a link that opens the page of one trip, for anyone
/// who holds it, until it expires.
///
/// A token names the trip and its expiry and carries an HMAC-SHA256 of both under a secret that
/// only the service holds, so a token cannot be made for another trip, or made to last longer,
/// without the secret. It is `NAME.EXPIRY.MAC`: the trip's full name in unpadded base64url, the
/// expiry in whole seconds since 1970, and the MAC in unpadded base64url. Tokens are not
/// encrypted: the trip's name can be read from one.
///
/// ```swift
/// let signer = try ShareLinkSigner(secret: secretBytes)
/// let token = signer.token(for: "providers/p/trips/t", expiresAt: .now.addingTimeInterval(3600))
/// // https://example.com/trips/shared/\(token)
/// ```
public struct ShareLinkSigner: Sendable {
    private let key: SymmetricKey

    /// The fewest bytes of secret accepted: the size of the hash, as RFC 2104 section 3 advises.
    public static let minimumSecretLength = 32

    /// A signer with `secret`, at least ``minimumSecretLength`` bytes; keep it out of logs.
    ///
    /// - Throws: ``JourneySharingError/Code/invalidShareSecret`` for a shorter secret.
    public init(secret: some Collection<UInt8>) throws(JourneySharingError) {
        guard secret.count >= Self.minimumSecretLength else {
            throw JourneySharingError(
                .invalidShareSecret,
                "a share-link secret must have at least \(Self.minimumSecretLength) bytes; this one has \(secret.count)"
            )
        }
        key = SymmetricKey(data: Array(secret))
    }

    /// A token for the trip named `tripName` (its full name) that opens its page until `expiresAt`
    /// (to the second, rounded down).
    public func token(for tripName: String, expiresAt: Date) -> String {
        let expiry = Int64(expiresAt.timeIntervalSince1970.rounded(.down))
        let mac = HMAC<SHA256>.authenticationCode(for: Self.signedBytes(tripName, expiry), using: key)
        return Base64.encode(Array(tripName.utf8), padded: false, urlSafe: true) + ".\(expiry)."
            + Base64.encode(Array(mac), padded: false, urlSafe: true)
    }

    /// The trip `token` opens and until when, when it was made with this secret and has not
    /// expired at `now`.
    ///
    /// - Throws: ``JourneySharingError/Code/malformedShareLink`` for a token of another shape,
    ///   ``JourneySharingError/Code/forgedShareLink`` when its MAC does not match (compared in
    ///   constant time), ``JourneySharingError/Code/expiredShareLink`` once it has expired. The
    ///   signature is checked before the expiry, so a forged token never learns whether its
    ///   expiry would have passed.
    public func sharedTrip(openedBy token: some StringProtocol, now: Date = Date()) throws(JourneySharingError)
        -> SharedTrip
    {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 4096 }) else {
            throw JourneySharingError(.malformedShareLink, "the share link's token is not NAME.EXPIRY.SIGNATURE")
        }
        guard let nameBytes = try? Base64.decode(String(parts[0])),
            let name = String(validating: nameBytes, as: UTF8.self)
        else {
            throw JourneySharingError(.malformedShareLink, "the share link's trip name is not base64url of UTF-8 text")
        }
        guard parts[1].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let expiry = Int64(parts[1])
        else {
            throw JourneySharingError(.malformedShareLink, "the share link's expiry is not a whole number of seconds")
        }
        guard let mac = try? Base64.decode(String(parts[2])), mac.count == SHA256.byteCount else {
            throw JourneySharingError(.malformedShareLink, "the share link's signature is not 32 bytes of base64url")
        }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Self.signedBytes(name, expiry), using: key)
        else {
            throw JourneySharingError(.forgedShareLink, "the share link's signature does not match: it was altered")
        }
        guard Double(expiry) > now.timeIntervalSince1970 else {
            throw JourneySharingError(.expiredShareLink, "the share link expired at \(Self.describe(expiry))")
        }
        return SharedTrip(tripName: name, expiresAt: Date(timeIntervalSince1970: Double(expiry)))
    }

    /// What the MAC covers: a label for this use of the secret, the name, a NUL, and the expiry's
    /// digits; the digits hold no NUL, so the last one splits the two and no two pairs give the
    /// same bytes.
    private static func signedBytes(_ name: String, _ expiry: Int64) -> [UInt8] {
        Array("fleet-engine trip share link v1\0".utf8) + Array(name.utf8) + [0] + Array(String(expiry).utf8)
    }

    /// An expiry as an ISO 8601 time in UTC.
    private static func describe(_ expiry: Int64) -> String {
        Date(timeIntervalSince1970: Double(expiry)).formatted(.iso8601)
    }
}

/// What a share link's token grants: the page of one trip, until a time.
public struct SharedTrip: Sendable, Hashable {
    /// The trip's full name.
    public var tripName: String
    /// When the link stops opening the page, and an open page stops receiving changes.
    public var expiresAt: Date
}
