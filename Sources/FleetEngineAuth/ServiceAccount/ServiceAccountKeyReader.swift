import Foundation
import _CryptoExtras

/// The steps of reading a key file, each failing with an error that names the field and the file.
struct ServiceAccountKeyReader {
    /// The key file, nil for bytes from elsewhere.
    var path: String?

    /// `the service account key file '<path>'`, or `the service account key` for bytes.
    var source: String {
        path.map { "the service account key file '\($0)'" } ?? "the service account key"
    }

    func error(
        _ code: ServiceAccountKeyError.Code,
        field: String? = nil,
        _ what: String,
        cause: (any Error)? = nil,
        file: String = #fileID,
        line: Int = #line
    ) -> ServiceAccountKeyError {
        ServiceAccountKeyError(
            code: code, message: "\(source): \(what)", field: field, path: path, cause: cause, file: file, line: line
        )
    }

    /// The file's bytes, at most ``ServiceAccountKey/maximumFileSize`` of them.
    func fileContents() throws(ServiceAccountKeyError) -> Data {
        let limit = ServiceAccountKey.maximumFileSize
        let contents: Data?
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path ?? ""))
            defer { try? handle.close() }
            contents = try handle.read(upToCount: limit + 1)
        } catch {
            throw self.error(.unreadableFile, "cannot be read", cause: error)
        }
        guard let contents, !contents.isEmpty else { throw self.error(.notJSON, "is empty, not a JSON object") }
        guard contents.count <= limit else {
            throw self.error(.unreadableFile, "is larger than \(limit) bytes, which no key file is")
        }
        return contents
    }

    /// The JSON object the bytes hold.
    func object(_ data: Data) throws(ServiceAccountKeyError) -> [String: Any] {
        // No cause: a parser's message can quote the text around the fault, which may be the key.
        guard let parsed = try? JSONSerialization.jsonObject(with: data) else {
            throw error(.notJSON, "is not JSON")
        }
        guard let object = parsed as? [String: Any] else {
            throw error(.notJSON, "is JSON but not an object of key fields")
        }
        return object
    }

    /// The non-empty string member `field`.
    func string(_ field: String, in object: [String: Any]) throws(ServiceAccountKeyError) -> String {
        guard let value = object[field], !(value is NSNull) else {
            throw error(.missingField, field: field, "has no \"\(field)\"")
        }
        guard let text = value as? String else {
            throw error(.wrongFieldType, field: field, "\"\(field)\" is not a string")
        }
        guard !text.isEmpty else { throw error(.missingField, field: field, "\"\(field)\" is empty") }
        return text
    }

    /// The RSA key of a PKCS#8 PEM text (`BEGIN PRIVATE KEY`), as Google writes `private_key`.
    func rsaPrivateKey(_ pem: String) throws(ServiceAccountKeyError) -> _RSA.Signing.PrivateKey {
        let what = "\"private_key\" is not an unencrypted PKCS#8 PEM RSA private key of 2048 bits or more"
        let trimmed = pem.drop { $0.isWhitespace }
        guard trimmed.hasPrefix("-----BEGIN PRIVATE KEY-----") else {
            throw error(.invalidPrivateKey, field: "private_key", what + " (no BEGIN PRIVATE KEY line)")
        }
        // No cause: what the crypto library says about a key stays out of messages and logs.
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw error(.invalidPrivateKey, field: "private_key", what)
        }
        return key
    }
}
