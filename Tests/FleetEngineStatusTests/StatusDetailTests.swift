import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Testing

@Suite("StatusDetail")
struct StatusDetailTests {
    static let typed = Array(zip(SampleDetails.all, SampleDetails.typeNames))

    @Test(arguments: typed)
    func typedDetailPacksWithGooglesPrefixAndReadsBack(detail: StatusDetail, typeName: String) throws {
        let any = detail.anyMessage
        #expect(any.typeURL == "type.googleapis.com/" + typeName)
        #expect(detail.typeName == typeName)
        #expect(StatusDetail(any) == detail)
        // Its JSON names the same message, so the typed case holds the message the bytes encode.
        let json = try #require(try detail.messageJSONString())
        #expect(try StatusDetail.parse(typeName: typeName, json: json) == detail)
    }

    @Test(arguments: typed)
    func typeIsTheNameAfterTheLastSlashWhateverTheHost(detail: StatusDetail, typeName: String) {
        for prefix in ["/", "example.com/", "https://types.example.com/a/b/"] {
            let any = SampleDetails.any(prefix + typeName, detail.anyMessage.value)
            #expect(StatusDetail(any) == detail, "\(prefix)")
        }
    }

    @Test(arguments: typed)
    func emptyValueIsTheMessageAtItsDefaults(detail: StatusDetail, typeName: String) {
        let read = StatusDetail(SampleDetails.any("type.googleapis.com/" + typeName, []))
        #expect(read.caseName == detail.caseName)
        #expect(read.anyMessage.value == [])
    }

    @Test(arguments: [
        "type.googleapis.com/google.protobuf.Duration",
        "type.googleapis.com/google.rpc.Status",
        "type.googleapis.com/google.rpc.errorinfo",
        "type.googleapis.com/rpc.ErrorInfo",
        "type.googleapis.com/google.rpc.ErrorInfo/",
        "type.googleapis.com/google.rpc.ErrorInfo ",
        "google.rpc.ErrorInfo.Extra",
        "google.rpc.ErrorInfo",
        "",
    ])
    func otherTypeIsKeptAsItArrived(typeURL: String) {
        let any = SampleDetails.any(typeURL, [0x08, 0x03, 0xFF])
        let detail = StatusDetail(any)
        #expect(detail == .other(any))
        #expect(detail.anyMessage == any)
    }

    /// Built with Google's Python protos: `Status(code=8, details=[Any(type_url="google.rpc.RetryInfo",
    /// value=RetryInfo(retry_delay=Duration(seconds=3)).SerializeToString())])`, base64 without
    /// padding; for that `Any`, Python's `Is(RetryInfo.DESCRIPTOR)` and `Unpack` are both False.
    static let statusWithSlashlessTypeURL = "CAgaHAoUZ29vZ2xlLnJwYy5SZXRyeUluZm8SBAoCCAM"

    @Test("a type URL without '/' names no standard type, as Google's Python Any says: no retry delay comes of it")
    func slashlessTypeURLIsNotAStandardDetail() throws {
        let status = CallStatus(
            grpcStatus: "8", grpcMessage: nil, grpcStatusDetailsBin: Self.statusWithSlashlessTypeURL)
        let detail = try #require(status.details.first)
        guard case .other(let any) = detail else {
            Issue.record("expected other, got \(detail)")
            return
        }
        #expect(any.typeURL == "google.rpc.RetryInfo")
        let error = try #require(status.error)
        #expect(error.retryDelay == nil)
        #expect(!error.isRetryable)
    }

    @Test func typeNameOfOtherIsTheTextAfterTheLastSlash() {
        #expect(StatusDetail(SampleDetails.durationAny).typeName == "google.protobuf.Duration")
        #expect(StatusDetail(SampleDetails.any("no-slash", [])).typeName == "no-slash")
        #expect(StatusDetail(SampleDetails.any("a/b/", [])).typeName == "")
    }

    @Test(arguments: [
        ("google.rpc.ErrorInfo", [UInt8]([0x0A, 0x02, 0xFF, 0xFE]), CodecError.Code.invalidUTF8),
        ("google.rpc.RetryInfo", [0x0A, 0x05, 0x08], .lengthPastEnd),
        ("google.rpc.BadRequest", [0x0A], .truncated),
        ("google.rpc.QuotaFailure", [UInt8](repeating: 0x80, count: 11), .malformedVarint),
        ("google.rpc.PreconditionFailure", [0x0F], .invalidWireType),
        ("google.rpc.ResourceInfo", [0x12, 0x01, 0xC3], .invalidUTF8),
        ("google.rpc.Help", [0x0A, 0x03, 0x12, 0x01, 0xFF], .invalidUTF8),
        ("google.rpc.LocalizedMessage", [0x00], .invalidFieldNumber),
        ("google.rpc.DebugInfo", [0x0C], .unmatchedEndGroup),
        ("google.rpc.RequestInfo", [0x0A, 0x7F], .lengthPastEnd),
    ])
    func standardTypeWithBadBytesIsUndecodableAndKeptWhole(typeName: String, value: [UInt8], reason: CodecError.Code) {
        let any = SampleDetails.any("type.googleapis.com/" + typeName, value)
        let detail = StatusDetail(any)
        guard case .undecodable(let kept, let error) = detail else {
            Issue.record("expected undecodable, got \(detail)")
            return
        }
        #expect(kept == any)
        #expect(error.code == reason)
        #expect(detail.anyMessage == any)
        #expect(detail.typeName == typeName)
    }

    @Test func unknownFieldsOfATypedDetailSurviveRepacking() throws {
        // ErrorInfo with reason "R" and a field 9 it does not define.
        let value: [UInt8] = [0x0A, 0x01, 0x52, 0x48, 0x2A]
        let detail = StatusDetail(SampleDetails.any("type.googleapis.com/google.rpc.ErrorInfo", value))
        guard case .errorInfo(let info) = detail else {
            Issue.record("expected ErrorInfo, got \(detail)")
            return
        }
        #expect(info.reason == "R")
        #expect(detail.anyMessage.value == value)
    }

    @Test func detailsOfEveryKindSurviveAStatusRoundTrip() throws {
        let undecodable = StatusDetail(SampleDetails.any("type.googleapis.com/google.rpc.Help", [0x0A]))
        let details = SampleDetails.all + [.other(SampleDetails.durationAny), undecodable]
        let bytes = SampleDetails.statusBytes(code: 9, message: "all", details: details)
        let status = try RPCStatus(serializedBytes: bytes)
        #expect(status.details.map(StatusDetail.init) == details)
        #expect(status.details.count == 12)
    }

    @Test func typeURLPrefixIsGoogles() {
        #expect(StatusDetail.typeURLPrefix == "type.googleapis.com/")
    }
}
