import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

/// `google.rpc.Status` with details, round-tripped through our codec against the bytes, JSON and
/// trailers that googleapis-common-protos and grpcio-status produced (Scripts/make-status-fixtures.py).
@Suite("Status fixtures from Google's Python packages")
struct StatusFixtureTests {
    /// The case each fixture detail must decode to: the standard types by name, a detail Python
    /// could not parse as undecodable, anything else as other.
    static func expectedCaseName(_ detail: StatusVectors.Detail) -> String {
        if detail.pythonParseError != nil { return "undecodable" }
        let names = [
            "google.rpc.ErrorInfo": "errorInfo", "google.rpc.RetryInfo": "retryInfo",
            "google.rpc.BadRequest": "badRequest", "google.rpc.QuotaFailure": "quotaFailure",
            "google.rpc.PreconditionFailure": "preconditionFailure", "google.rpc.ResourceInfo": "resourceInfo",
            "google.rpc.Help": "help", "google.rpc.LocalizedMessage": "localizedMessage",
            "google.rpc.DebugInfo": "debugInfo", "google.rpc.RequestInfo": "requestInfo",
        ]
        return names[detail.typeName] ?? "other"
    }

    /// Cases whose every detail carries the `type.googleapis.com/` prefix, so that packing the typed
    /// details again must give Python's bytes back.
    static let canonicallyPacked = StatusVectors.cases.filter { vector in
        vector.details.allSatisfy { $0.typeURL.hasPrefix(StatusDetail.typeURLPrefix) }
    }

    @Test func fixtureFileCoversEveryCodeAndEveryDetailType() throws {
        #expect(StatusVectors.cases.count == 21)
        #expect(StatusVectors.document["packages"]?["googleapis-common-protos"] == .string("1.76.0"))
        let codes = Set(StatusVectors.cases.map(\.code))
        #expect(codes.isSuperset(of: 0...16))
        let typed = Set(StatusVectors.cases.flatMap(\.details).filter { $0.json != nil }.map(\.typeName))
        #expect(typed.count == 10)
        let allDetails = try StatusVectors.named("all-details")
        #expect(allDetails.details.count == 11)
    }

    @Test(arguments: StatusVectors.cases.filter { $0.trailers != nil })
    func grpcioStatusTrailersGiveTheStatus(vector: StatusVectors.Case) throws {
        let trailers = try #require(vector.trailers)
        #expect(trailers.code == vector.code)
        #expect(trailers.grpcCodeName == vector.codeName)
        #expect(trailers.details == vector.message)
        // to_status's grpc-status-details-bin is the serialized status itself.
        #expect(Data(base64Encoded: trailers.grpcStatusDetailsBin).map(Array.init) == vector.statusBytes)

        let status = CallStatus(
            grpcStatus: String(trailers.code),
            grpcMessage: vector.grpcMessage,
            grpcStatusDetailsBin: trailers.grpcStatusDetailsBin
        )
        #expect(status.code == StatusCode(rawValue: vector.code))
        #expect(status.code.name == vector.codeName)
        #expect(status.message == vector.message)
        #expect(status.origin == .status)
        #expect(status.statusDetailsProblem == nil)
        #expect(status.rpcStatus?.code == Int32(vector.code))
        #expect(status.rpcStatus?.message == vector.message)
        #expect(status.isOK == (vector.code == 0))
        #expect((status.error == nil) == (vector.code == 0))
        try expectDetails(status.details, match: vector.details)
    }

    @Test(arguments: StatusVectors.cases)
    func unpaddedBase64WithoutGrpcMessageGivesTheSameStatus(vector: StatusVectors.Case) throws {
        // gRPC senders leave the padding off; and with grpc-message absent the status's own message stands in.
        let unpadded = base64(vector.statusBytes, padded: false)
        let status = CallStatus(grpcStatus: String(vector.code), grpcMessage: nil, grpcStatusDetailsBin: unpadded)
        #expect(status.code.rawValue == vector.code)
        #expect(status.message == vector.message)
        #expect(status.statusDetailsProblem == nil)
        try expectDetails(status.details, match: vector.details)
    }

    @Test(arguments: StatusVectors.cases)
    func decodedStatusReencodesToPythonBytes(vector: StatusVectors.Case) throws {
        let status = try RPCStatus(serializedBytes: vector.statusBytes)
        #expect(Int(status.code) == vector.code)
        #expect(status.message == vector.message)
        #expect(status.details.map(\.typeURL) == vector.details.map(\.typeURL))
        #expect(status.details.map(\.value) == vector.details.map(\.value))
        #expect(status.serializedBytes() == vector.statusBytes)
    }

    @Test(arguments: canonicallyPacked)
    func typedDetailsPackedAgainGivePythonBytes(vector: StatusVectors.Case) throws {
        let status = CallStatus(
            grpcStatus: String(vector.code), grpcMessage: nil, grpcStatusDetailsBin: base64(vector.statusBytes))
        #expect(status.rpcStatusMessage.serializedBytes() == vector.statusBytes)
        for (detail, expected) in zip(status.details, vector.details) {
            #expect(detail.anyMessage.typeURL == expected.typeURL)
            #expect(detail.anyMessage.value == expected.value)
        }
    }

    @Test(arguments: canonicallyPacked.filter { $0.code != 0 })
    func trailerValuesCarryPythonBytesAndTheEncodedMessage(vector: StatusVectors.Case) throws {
        let status = CallStatus(
            grpcStatus: String(vector.code), grpcMessage: vector.grpcMessage,
            grpcStatusDetailsBin: base64(vector.statusBytes))
        let trailers = status.trailerValues
        #expect(trailers.grpcStatus == String(vector.code))
        #expect(trailers.grpcMessage == (vector.message.isEmpty ? nil : vector.grpcMessage))
        if vector.details.isEmpty {
            #expect(trailers.grpcStatusDetailsBin == nil)
        } else {
            let bin = try #require(trailers.grpcStatusDetailsBin)
            #expect(!bin.hasSuffix("="))
            #expect(Data(base64Encoded: padded(bin)).map(Array.init) == vector.statusBytes)
        }
    }

    @Test(arguments: StatusVectors.cases)
    func grpcMessageEncodingMatchesTheProtocolRule(vector: StatusVectors.Case) {
        #expect(StatusMessageText.encode(vector.message) == vector.grpcMessage)
        #expect(StatusMessageText.decode(vector.grpcMessage) == vector.message)
    }

    @Test(arguments: StatusVectors.cases)
    func detailJSONMatchesMessageToJson(vector: StatusVectors.Case) throws {
        let status = try RPCStatus(serializedBytes: vector.statusBytes)
        for (any, expected) in zip(status.details, vector.details) {
            let detail = StatusDetail(any)
            guard let pythonJSON = expected.json else {
                #expect(try detail.messageJSONString() == nil)
                continue
            }
            let ours = try #require(try detail.messageJSONString())
            #expect(try SemanticJSON(text: ours) == pythonJSON, "\(expected.typeName)")
            // Our JSON parses back to the same message.
            let reparsed = try StatusDetail.parse(typeName: expected.typeName, json: ours)
            #expect(reparsed == detail)
        }
    }

    @Test(arguments: StatusVectors.cases.filter { $0.details.contains { $0.anyJSON != nil } })
    func anyJSONMatchesMessageToJson(vector: StatusVectors.Case) throws {
        let status = try RPCStatus(serializedBytes: vector.statusBytes)
        for (any, expected) in zip(status.details, vector.details) {
            guard let pythonJSON = expected.anyJSON else { continue }
            #expect(try SemanticJSON(text: any.jsonString()) == pythonJSON, "\(expected.typeURL)")
        }
    }

    @Test(arguments: StatusVectors.cases.filter { $0.statusJSON != nil })
    func statusJSONMatchesMessageToJson(vector: StatusVectors.Case) throws {
        let status = try RPCStatus(serializedBytes: vector.statusBytes)
        let pythonJSON = try #require(vector.statusJSON)
        #expect(try SemanticJSON(text: status.jsonString()) == pythonJSON)
        #expect(try RPCStatus(jsonString: status.jsonString()) == status)
    }

    @Test func statusesPythonCannotPrintAreTheOnesWithUnprintableDetails() throws {
        let unprintable = StatusVectors.cases.filter { $0.statusJSON == nil }.map(\.name)
        #expect(unprintable == ["data-loss-made-up-type", "internal-undecodable-error-info"])
    }

    @Test func madeUpTypeIsKeptAsItArrived() throws {
        let vector = try StatusVectors.named("data-loss-made-up-type")
        let status = CallStatus(grpcStatus: "15", grpcMessage: nil, grpcStatusDetailsBin: base64(vector.statusBytes))
        var expected = AnyMessage()
        expected.typeURL = "type.example.com/example.fleet.v1.DispatchHint"
        expected.value = [0x08, 0x96, 0x01, 0x12, 0x03, 0x61, 0x62, 0x63, 0x35, 0xEF, 0xBE, 0xAD, 0xDE]
        #expect(status.details == [.other(expected)])
        #expect(status.details.first?.typeName == "example.fleet.v1.DispatchHint")
        #expect(status.error?.family == .serviceFault)
    }

    @Test func errorInfoWhoseBytesAreNotUTF8IsUndecodableAndTheRestSurvives() throws {
        let vector = try StatusVectors.named("internal-undecodable-error-info")
        #expect(vector.details.first?.pythonParseError?.contains("bad UTF-8") == true)
        let status = CallStatus(grpcStatus: "13", grpcMessage: nil, grpcStatusDetailsBin: base64(vector.statusBytes))
        #expect(status.details.count == 2)
        guard case .undecodable(let any, let reason) = status.details.first else {
            Issue.record("expected undecodable, got \(status.details)")
            return
        }
        #expect(any.typeURL == "type.googleapis.com/google.rpc.ErrorInfo")
        #expect(any.value == [0x0A, 0x02, 0xFF, 0xFE])
        #expect(reason.code == .invalidUTF8)
        #expect(status.details.last?.caseName == "requestInfo")
        #expect(status.statusDetailsProblem == nil)
    }

    @Test func typeURLWithAnotherHostIsReadByItsTypeNameAndPackedWithGooglesPrefix() throws {
        let vector = try StatusVectors.named("unavailable-other-type-url-host")
        let status = CallStatus(grpcStatus: "14", grpcMessage: nil, grpcStatusDetailsBin: base64(vector.statusBytes))
        guard case .retryInfo(let info) = status.details.first else {
            Issue.record("expected RetryInfo, got \(status.details)")
            return
        }
        #expect(info.retryDelay?.seconds == 1)
        #expect(status.details.first?.anyMessage.typeURL == "type.googleapis.com/google.rpc.RetryInfo")
        // The status as it arrived keeps the sender's type URL.
        #expect(status.rpcStatus?.details.first?.typeURL == "example.com/google.rpc.RetryInfo")
        #expect(status.rpcStatus?.serializedBytes() == vector.statusBytes)
        #expect(status.error?.retryDelay == .seconds(1))
    }

    @Test func codeOutsideGoogleRPCCodeIsRefusedByToStatusButKeptByUs() throws {
        let vector = try StatusVectors.named("code-outside-google-rpc-code")
        #expect(vector.trailers == nil)
        #expect(vector.toStatusError == "Invalid status code 42")
        #expect(vector.codeName == nil)
        let status = CallStatus(grpcStatus: "42", grpcMessage: nil, grpcStatusDetailsBin: base64(vector.statusBytes))
        #expect(status.code.rawValue == 42)
        #expect(status.code.effective == .unknown)
        #expect(status.message == "A code from the future.")
        #expect(status.details.map(\.caseName) == ["errorInfo"])
        #expect(status.error?.family == .serviceFault)
    }

    private func expectDetails(
        _ details: [StatusDetail],
        match expected: [StatusVectors.Detail],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(details.map(\.caseName) == expected.map(Self.expectedCaseName), sourceLocation: sourceLocation)
        #expect(details.map(\.typeName) == expected.map(\.typeName), sourceLocation: sourceLocation)
        let fields = DetailFieldExpectations(sourceLocation: sourceLocation)
        for (detail, vector) in zip(details, expected) {
            if let json = vector.json { fields.expect(detail, matches: json) }
            if case .other(let any) = detail {
                #expect(any.typeURL == vector.typeURL, sourceLocation: sourceLocation)
                #expect(any.value == vector.value, sourceLocation: sourceLocation)
            }
        }
    }
}
