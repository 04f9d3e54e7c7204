import FleetEngineAuth
import FleetEngineTestSupport
import Foundation
import Testing

/// Google's service account key files: what is read, what is refused and how, and that the private
/// key is never printed.
@Suite("Service account keys")
struct ServiceAccountKeyTests {
    /// A key file that is wrong in one field, and the error it must get.
    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var field: String?
        var code: ServiceAccountKeyError.Code
        var message: String
        /// The change to a good key file; nil for ``text`` instead.
        var change: (String, String?)?
        var number: Bool = false
        var text: String?

        var testDescription: String { name }

        func bytes(_ account: TestServiceAccount) throws -> [UInt8] {
            if let text { return Array(text.utf8) }
            guard let change else { return try account.json() }
            if number { return try account.json(changing: [change.0: 42]) }
            return try account.json(changing: [change.0: change.1])
        }
    }

    static let faults: [Fault] = [
        Fault(
            name: "not JSON", code: .notJSON, message: "is not JSON", text: "private_key_id: abc"),
        Fault(
            name: "a JSON array", code: .notJSON, message: "is JSON but not an object of key fields", text: "[]"),
        Fault(
            name: "no type", field: "type", code: .missingField, message: "has no \"type\"", change: ("type", nil)),
        Fault(
            name: "an OAuth client's file", field: "type", code: .notServiceAccount,
            message: "\"type\" is \"authorized_user\", not \"service_account\": it is not a service account key",
            change: ("type", "authorized_user")),
        Fault(
            name: "no private_key_id", field: "private_key_id", code: .missingField,
            message: "has no \"private_key_id\"", change: ("private_key_id", nil)),
        Fault(
            name: "an empty client_email", field: "client_email", code: .missingField,
            message: "\"client_email\" is empty", change: ("client_email", "")),
        Fault(
            name: "a number for project_id", field: "project_id", code: .wrongFieldType,
            message: "\"project_id\" is not a string", change: ("project_id", ""), number: true),
        Fault(
            name: "no private_key", field: "private_key", code: .missingField, message: "has no \"private_key\"",
            change: ("private_key", nil)),
        Fault(
            name: "a PKCS#1 private_key", field: "private_key", code: .invalidPrivateKey,
            message: "\"private_key\" is not an unencrypted PKCS#8 PEM RSA private key of 2048 bits or more "
                + "(no BEGIN PRIVATE KEY line)",
            change: ("private_key", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n")),
        Fault(
            name: "a damaged private_key", field: "private_key", code: .invalidPrivateKey,
            message: "\"private_key\" is not an unencrypted PKCS#8 PEM RSA private key of 2048 bits or more",
            change: ("private_key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n")),
    ]

    @Test("a key file gives the account, the key id, the project and a key that verifies its signatures")
    func readsKeyFile() throws {
        let account = try TestServiceAccount()
        let path = try account.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = try ServiceAccountKey(contentsOfFile: path)
        #expect(key.clientEmail == account.clientEmail)
        #expect(key.privateKeyID == account.privateKeyID)
        #expect(key.projectID == "test-project")
        #expect(key.path == path)
        #expect(key.publicKeyPEM == account.publicKeyPEM)
        #expect(key.verificationKey.id == account.privateKeyID)
        #expect(key.verificationKey.algorithm == .rs256)
        let fromBytes = try ServiceAccountKey(json: try account.json())
        #expect(fromBytes.path == nil)
        #expect(fromBytes.publicKeyPEM == account.publicKeyPEM)
    }

    @Test("GOOGLE_APPLICATION_CREDENTIALS names the key file; unset or empty it gives no key")
    func readsEnvironment() throws {
        let account = try TestServiceAccount()
        let path = try account.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = try #require(try ServiceAccountKey.fromEnvironment(["GOOGLE_APPLICATION_CREDENTIALS": path]))
        #expect(key.privateKeyID == account.privateKeyID)
        #expect(try ServiceAccountKey.fromEnvironment([:]) == nil)
        #expect(try ServiceAccountKey.fromEnvironment(["GOOGLE_APPLICATION_CREDENTIALS": ""]) == nil)
    }

    @Test("a file that is not a service account key is refused naming the field and the file", arguments: faults)
    func refusesFault(_ fault: Fault) throws {
        let account = try TestServiceAccount()
        let path = try account.write(try fault.bytes(account))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ServiceAccountKeyError.self) {
            try ServiceAccountKey(contentsOfFile: path)
        }
        #expect(error == ServiceAccountKeyError(code: fault.code, message: "", field: fault.field))
        #expect(error.message == "the service account key file '\(path)': \(fault.message)")
        #expect(error.path == path)
        let fromBytes = try #require(throws: ServiceAccountKeyError.self) {
            try ServiceAccountKey(json: try fault.bytes(account))
        }
        #expect(fromBytes.message == "the service account key: \(fault.message)")
    }

    @Test("a missing, empty or oversized file is refused as such")
    func refusesFiles() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let unreadable = try #require(throws: ServiceAccountKeyError.self) {
            try ServiceAccountKey(contentsOfFile: missing.path)
        }
        #expect(unreadable.code == .unreadableFile)
        #expect(unreadable.message == "the service account key file '\(missing.path)': cannot be read")
        let account = try TestServiceAccount()
        let empty = try account.write([])
        let large = try account.write(Array(repeating: UInt8(ascii: " "), count: ServiceAccountKey.maximumFileSize + 1))
        defer {
            try? FileManager.default.removeItem(atPath: empty)
            try? FileManager.default.removeItem(atPath: large)
        }
        #expect(throws: ServiceAccountKeyError(code: .notJSON, message: "")) {
            try ServiceAccountKey(contentsOfFile: empty)
        }
        let oversized = try #require(throws: ServiceAccountKeyError.self) {
            try ServiceAccountKey(contentsOfFile: large)
        }
        #expect(oversized.code == .unreadableFile)
        #expect(oversized.message.hasSuffix("is larger than 65536 bytes, which no key file is"))
    }

    @Test("the private key shows in no description, debug description, mirror or error")
    func neverPrintsPrivateKey() throws {
        let account = try TestServiceAccount()
        let key = try ServiceAccountKey(json: try account.json())
        // A line from inside the PEM body: any printing of the key would contain it.
        let secretLine = try #require(account.privateKeyPEM.split(separator: "\n").dropFirst(3).first)
        var dumped = ""
        dump(key, to: &dumped)
        var dumpedSigner = ""
        dump(TokenMinter(serviceAccount: key), to: &dumpedSigner)
        let texts = [
            key.description, key.debugDescription, String(describing: key), String(reflecting: key), dumped,
            dumpedSigner, "\(key.verificationKey)", String(reflecting: TokenMinter(serviceAccount: key).signingKey),
        ]
        for text in texts {
            #expect(!text.contains(secretLine))
            #expect(!text.contains("PRIVATE KEY"))
        }
        #expect(key.description == "service account key \"\(account.privateKeyID)\" of \(account.clientEmail)")
        #expect(Mirror(reflecting: key).children.map(\.label) == ["clientEmail", "privateKeyID", "projectID", "path"])
        // A key the crypto library refuses: the error quotes none of it.
        let damaged = account.privateKeyPEM.replacingOccurrences(
            of: String(secretLine), with: String(secretLine.reversed()))
        let error = try #require(throws: ServiceAccountKeyError.self) {
            try ServiceAccountKey(json: try account.json(changing: ["private_key": damaged]))
        }
        #expect(error.code == .invalidPrivateKey)
        #expect(!"\(error)".contains(String(secretLine.reversed())))
        #expect(!String(reflecting: error).contains(String(secretLine.reversed())))
    }
}
