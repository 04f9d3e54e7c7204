import Foundation

/// A Google service account key: the JSON file the Cloud console or
/// `gcloud iam service-accounts keys create` hands out, which signs Fleet Engine tokens.
///
/// Of the file's members the key reads `type` (which must be `service_account`),
/// `private_key_id`, `private_key` (an RSA key in PKCS#8 PEM), `client_email` and `project_id`;
/// the others (`client_id`, `auth_uri`, `token_uri`...) are ignored, since minting Fleet Engine
/// tokens calls no Google server.
///
/// ```swift
/// let key = try ServiceAccountKey(contentsOfFile: "fleet-engine-key.json")
/// let minter = TokenMinter(serviceAccount: key)
/// ```
///
/// Nothing it prints shows the private key: its description, debug description and mirror name
/// the account and the key id only, and its errors (``ServiceAccountKeyError``) never quote it.
public struct ServiceAccountKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The environment variable Google's libraries read a key file's path from.
    public static let environmentVariable = "GOOGLE_APPLICATION_CREDENTIALS"
    /// The largest key file read: Google's are about 2.3 KB; this bounds what a wrong path such
    /// as `/dev/zero` makes the reader hold.
    public static let maximumFileSize = 64 * 1024

    /// `client_email`: the service account, and the `iss` and `sub` of its tokens.
    public let clientEmail: String
    /// `private_key_id`: the `kid` of its tokens.
    public let privateKeyID: String
    /// `project_id`: the Google Cloud project the account belongs to, which is the Fleet Engine
    /// provider id (`providers/{project_id}`) when the account is the project's own.
    public let projectID: String
    /// The file the key was read from; nil for a key given as bytes.
    public let path: String?
    /// The RS256 private key, with `private_key_id` as its id.
    let signingKey: JWTSigningKey

    /// Reads a key from the JSON bytes of a key file.
    ///
    /// - Parameters:
    ///   - bytes: the key file's contents.
    ///   - path: the file the bytes came from, for error messages; nil when they came from
    ///     elsewhere.
    /// - Throws: ``ServiceAccountKeyError`` naming the field at fault: not a JSON object, a
    ///   required field missing or not a string, a `type` other than `service_account`, a
    ///   `private_key` that is not a PKCS#8 PEM RSA private key.
    public init(json bytes: some Collection<UInt8>, path: String? = nil) throws(ServiceAccountKeyError) {
        let reader = ServiceAccountKeyReader(path: path)
        let object = try reader.object(Data(bytes))
        let type = try reader.string("type", in: object)
        guard type == "service_account" else {
            throw reader.error(
                .notServiceAccount,
                field: "type",
                "\"type\" is \"\(JWTError.excerpt(type))\", not \"service_account\": it is not a service account key"
            )
        }
        let privateKeyID = try reader.string("private_key_id", in: object)
        let clientEmail = try reader.string("client_email", in: object)
        let projectID = try reader.string("project_id", in: object)
        let privateKey = try reader.rsaPrivateKey(try reader.string("private_key", in: object))
        self.clientEmail = clientEmail
        self.privateKeyID = privateKeyID
        self.projectID = projectID
        self.path = path
        self.signingKey = JWTSigningKey(material: .rsa(privateKey), id: privateKeyID)
    }

    /// Reads the key file at `path`.
    ///
    /// - Throws: ``ServiceAccountKeyError/Code/unreadableFile`` when the file cannot be read or is
    ///   larger than ``maximumFileSize``, and what ``init(json:path:)`` throws.
    public init(contentsOfFile path: String) throws(ServiceAccountKeyError) {
        try self.init(json: try ServiceAccountKeyReader(path: path).fileContents(), path: path)
    }

    /// The key whose file `GOOGLE_APPLICATION_CREDENTIALS` names, or nil when the variable is
    /// unset or empty.
    ///
    /// - Parameter environment: the variables to look in; nil, the default, for the process's.
    /// - Throws: as ``init(contentsOfFile:)``.
    public static func fromEnvironment(
        _ environment: [String: String]? = nil
    ) throws(ServiceAccountKeyError) -> ServiceAccountKey? {
        let variables = environment ?? ProcessInfo.processInfo.environment
        guard let path = variables[environmentVariable], !path.isEmpty else { return nil }
        return try ServiceAccountKey(contentsOfFile: path)
    }

    /// The key that verifies its tokens: the RSA public key, with `private_key_id` as its id.
    public var verificationKey: JWTKey { signingKey.verificationKey }

    /// The RSA public key in PEM (`BEGIN PUBLIC KEY`), for a verifier such as the emulator's
    /// `--jwt-public-key`.
    public var publicKeyPEM: String { signingKey.publicKeyPEM ?? "" }

    /// `service account key "<private_key_id>" of <client_email>`, never the key itself.
    public var description: String {
        "service account key \"\(privateKeyID)\" of \(clientEmail)"
    }

    /// The ``description``.
    public var debugDescription: String { description }

    /// The account, the key id, the project and the path: the default mirror would reflect the
    /// private key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "clientEmail": clientEmail, "privateKeyID": privateKeyID, "projectID": projectID,
                "path": path as Any,
            ],
            displayStyle: .struct
        )
    }
}
