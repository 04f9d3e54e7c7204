import Foundation
import _CryptoExtras

/// A service account key made for one test: a fresh 2048-bit RSA key (no key is committed) in the
/// JSON layout of Google's key files, and the file written to the temporary folder on request.
public struct TestServiceAccount: Sendable {
    /// `project_id`.
    public let projectID: String
    /// `private_key_id`.
    public let privateKeyID: String
    /// `client_email`.
    public let clientEmail: String
    /// `private_key`: PKCS#8 PEM, as Google writes it.
    public let privateKeyPEM: String
    /// The public half, SPKI PEM (`BEGIN PUBLIC KEY`).
    public let publicKeyPEM: String

    /// A new key for `projectID`, with a random key id.
    public init(projectID: String = "test-project") throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        self.projectID = projectID
        self.privateKeyID = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        self.clientEmail = "fleet-engine@\(projectID).iam.gserviceaccount.com"
        self.privateKeyPEM = key.pkcs8PEMRepresentation
        self.publicKeyPEM = key.publicKey.pemRepresentation
    }

    /// The members of the key file, those Google writes that the key does not read included.
    public var fields: [String: String] {
        [
            "type": "service_account",
            "project_id": projectID,
            "private_key_id": privateKeyID,
            "private_key": privateKeyPEM,
            "client_email": clientEmail,
            "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
            "universe_domain": "googleapis.com",
        ]
    }

    /// The key file's bytes: ``fields`` with `changes` applied (a value of `NSNull()` stays in as
    /// JSON `null`; a key mapped to nil is removed).
    public func json(changing changes: [String: Any?] = [:]) throws -> [UInt8] {
        var object: [String: Any] = fields
        for (name, value) in changes { object[name] = value }
        return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// Writes `bytes` (the key file by default) to a new file in the temporary folder, readable by
    /// this user only, and returns its path.
    public func write(_ bytes: [UInt8]? = nil) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "service-account-\(UUID().uuidString).json")
        guard
            FileManager.default.createFile(
                atPath: url.path, contents: Data(try bytes ?? json()), attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url.path
    }
}
