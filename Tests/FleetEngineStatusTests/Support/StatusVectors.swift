import FleetEngineTestSupport
import Foundation
import Testing

/// The fixtures Scripts/make-status-fixtures.py writes with googleapis-common-protos and grpcio-status.
///
/// Read with `JSONSerialization` and `Data(base64Encoded:)`, so that nothing of the code under test
/// stands between Python's output and the expectations.
enum StatusVectors {
    /// One entry of `google.rpc.Status.details` as Python packed and printed it.
    struct Detail: Sendable {
        var typeURL: String
        var typeName: String
        var value: [UInt8]
        /// `MessageToJson` of the detail itself; nil for a type outside error_details.proto or bytes
        /// Python could not parse.
        var json: SemanticJSON?
        /// `MessageToJson` of the `Any`; nil when Python could not print it.
        var anyJSON: SemanticJSON?
        var pythonParseError: String?
    }

    /// What `grpc_status.rpc_status.to_status` returned.
    struct Trailers: Sendable {
        var code: Int
        var grpcCodeName: String
        var details: String
        /// The `grpc-status-details-bin` value, standard padded base64.
        var grpcStatusDetailsBin: String
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var code: Int
        var codeName: String?
        var message: String
        var grpcMessage: String
        var statusBytes: [UInt8]
        var statusJSON: SemanticJSON?
        var details: [Detail]
        var trailers: Trailers?
        var toStatusError: String?

        var testDescription: String { name }
    }

    static let document: SemanticJSON = {
        guard
            let url = Bundle.module.url(forResource: "status-vectors", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url),
            let value = try? JSONSerialization.jsonObject(with: data)
        else { return .null }
        return SemanticJSON(foundation: value)
    }()

    static let cases: [Case] = document["cases"]?.arrayValue?.compactMap(makeCase) ?? []

    /// The fixture with this name; fails the test when there is none.
    static func named(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Case {
        try #require(cases.first { $0.name == name }, "no fixture case \(name)", sourceLocation: sourceLocation)
    }

    private static func bytes(_ base64: String?) -> [UInt8]? {
        guard let base64, let data = Data(base64Encoded: base64) else { return nil }
        return Array(data)
    }

    private static func optional(_ value: SemanticJSON?) -> SemanticJSON? {
        value == .null ? nil : value
    }

    private static func makeDetail(_ value: SemanticJSON) -> Detail? {
        guard let typeURL = value["typeUrl"]?.stringValue, let typeName = value["typeName"]?.stringValue,
            let bytes = bytes(value["valueBase64"]?.stringValue)
        else { return nil }
        return Detail(
            typeURL: typeURL,
            typeName: typeName,
            value: bytes,
            json: optional(value["json"]),
            anyJSON: optional(value["anyJson"]),
            pythonParseError: value["pythonParseError"]?.stringValue
        )
    }

    private static func makeTrailers(_ value: SemanticJSON?) -> Trailers? {
        guard let value, let code = value["code"]?.numberValue, let name = value["grpcCodeName"]?.stringValue,
            let details = value["details"]?.stringValue, let bin = value["grpcStatusDetailsBinBase64"]?.stringValue
        else { return nil }
        return Trailers(code: Int(code), grpcCodeName: name, details: details, grpcStatusDetailsBin: bin)
    }

    private static func makeCase(_ value: SemanticJSON) -> Case? {
        guard let name = value["name"]?.stringValue, let code = value["code"]?.numberValue,
            let message = value["message"]?.stringValue, let grpcMessage = value["grpcMessage"]?.stringValue,
            let statusBytes = bytes(value["statusBase64"]?.stringValue),
            let details = value["details"]?.arrayValue
        else { return nil }
        return Case(
            name: name,
            code: Int(code),
            codeName: value["codeName"]?.stringValue,
            message: message,
            grpcMessage: grpcMessage,
            statusBytes: statusBytes,
            statusJSON: optional(value["statusJson"]),
            details: details.compactMap(makeDetail),
            trailers: makeTrailers(value["trailers"]),
            toStatusError: value["toStatusError"]?.stringValue
        )
    }
}
