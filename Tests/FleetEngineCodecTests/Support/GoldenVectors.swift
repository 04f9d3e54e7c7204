import Foundation
import Testing

/// The fixtures Scripts/make-golden-vectors.py writes with Google's own Python packages.
enum GoldenVectors {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var type: String
        var files: [String]
        var byteExact: Bool
        var testDescription: String { name }

        var binary: [UInt8] { GoldenVectors.bytes(name + ".bin") }
        var json: [UInt8]? { files.contains(name + ".json") ? GoldenVectors.bytes(name + ".json") : nil }
    }

    struct Rejected: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var type: String
        var hex: String
        var reason: String
        var testDescription: String { name }
    }

    struct JSONInput: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var type: String
        var json: String
        var hex: String?
        var canonicalJson: String?
        var reason: String?
        var testDescription: String { name }
    }

    private struct Manifest: Decodable { var cases: [Case] }
    private struct RejectedFile: Decodable { var inputs: [Rejected] }
    private struct JSONInputsFile: Decodable {
        var accepted: [JSONInput]
        var rejected: [JSONInput]
    }

    static let folder: URL = {
        guard let base = Bundle.module.resourceURL else { return URL(fileURLWithPath: "/nonexistent") }
        return base.appendingPathComponent("Fixtures/golden")
    }()

    static func bytes(_ file: String) -> [UInt8] {
        (try? Array(Data(contentsOf: folder.appendingPathComponent(file)))) ?? []
    }

    private static func load<T: Decodable>(_ file: String, as type: T.Type) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(bytes(file)))
    }

    static let cases: [Case] = load("manifest.json", as: Manifest.self)?.cases ?? []
    static let rejected: [Rejected] = load("rejected.json", as: RejectedFile.self)?.inputs ?? []
    static let acceptedJSON: [JSONInput] = load("json_inputs.json", as: JSONInputsFile.self)?.accepted ?? []
    static let rejectedJSON: [JSONInput] = load("json_inputs.json", as: JSONInputsFile.self)?.rejected ?? []
}
