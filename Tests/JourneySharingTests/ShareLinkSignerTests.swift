import Foundation
import Testing

@testable import JourneySharing

@Suite("share links")
struct ShareLinkSignerTests {
    static let secret = Array("a secret of at least thirty-two bytes, for tests only".utf8)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a token opens the trip it names until it expires, and not after")
    func tokenOpensItsTripUntilExpiry() throws {
        let signer = try ShareLinkSigner(secret: Self.secret)
        let token = signer.token(for: "providers/p/trips/t-1", expiresAt: Self.now.addingTimeInterval(60.9))
        let opened = try signer.sharedTrip(openedBy: token, now: Self.now)
        #expect(opened.tripName == "providers/p/trips/t-1")
        #expect(opened.expiresAt == Date(timeIntervalSince1970: 1_800_000_060))
        #expect(token.hasPrefix("cHJvdmlkZXJzL3AvdHJpcHMvdC0x.1800000060."))
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) })
        #expect(throws: JourneySharingError(.expiredShareLink, "")) {
            try signer.sharedTrip(openedBy: token, now: Self.now.addingTimeInterval(60))
        }
    }

    @Test("a token altered anywhere, or signed with another secret, is refused as forged")
    func alteredTokensAreForged() throws {
        let signer = try ShareLinkSigner(secret: Self.secret)
        let token = signer.token(for: "providers/p/trips/t-1", expiresAt: Self.now.addingTimeInterval(3600))
        let parts = token.split(separator: ".").map(String.init)
        let otherTrip = signer.token(for: "providers/p/trips/t-2", expiresAt: Self.now.addingTimeInterval(3600))
        let forgeries = [
            // Another trip's name with this token's signature.
            [String(otherTrip.split(separator: ".")[0]), parts[1], parts[2]].joined(separator: "."),
            // A later expiry.
            [parts[0], "1900000000", parts[2]].joined(separator: "."),
            // Another secret.
            try ShareLinkSigner(secret: Array(repeating: 7, count: 32)).token(
                for: "providers/p/trips/t-1", expiresAt: Self.now.addingTimeInterval(3600)),
        ]
        for forged in forgeries {
            #expect(throws: JourneySharingError(.forgedShareLink, "")) {
                try signer.sharedTrip(openedBy: forged, now: Self.now)
            }
        }
        // A forged token is refused as forged even when expired too: its expiry tells nothing.
        #expect(throws: JourneySharingError(.forgedShareLink, "")) {
            try signer.sharedTrip(openedBy: [parts[0], "1", parts[2]].joined(separator: "."), now: Self.now)
        }
    }

    @Test(
        "tokens of another shape are malformed",
        arguments: [
            "", "a.b", "a.b.c.d", "..", "cA.12.", "cA.-1.AAAA", "cA.1e3.AAAA", "c!A.12.AAAA", "cA.12.AAAA",
            "_w.12.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        ])
    func malformedTokens(_ token: String) throws {
        let signer = try ShareLinkSigner(secret: Self.secret)
        #expect(throws: JourneySharingError(.malformedShareLink, "")) {
            try signer.sharedTrip(openedBy: token, now: Self.now)
        }
    }

    @Test("a secret shorter than 32 bytes is refused, and the error does not show it")
    func shortSecretRefused() {
        let secret = Array("thirty-one bytes of secret text!".utf8.dropLast())
        #expect(secret.count == 31)
        do {
            _ = try ShareLinkSigner(secret: secret)
            Issue.record("a 31-byte secret was accepted")
        } catch {
            #expect(error.code == .invalidShareSecret)
            #expect(error.message == "a share-link secret must have at least 32 bytes; this one has 31")
        }
    }
}
