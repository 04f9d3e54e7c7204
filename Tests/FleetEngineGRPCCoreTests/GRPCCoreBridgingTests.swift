import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import GRPCCore
import Testing

@Suite("FleetEngineError and grpc-swift")
struct GRPCCoreBridgingTests {
    static let details: [StatusDetail] = [
        .errorInfo(SampleDetails.errorInfo), .retryInfo(SampleDetails.retryInfo(seconds: 3, nanos: 0)),
        .other(SampleDetails.durationAny),
    ]

    /// Every grpc-swift code with its number.
    static let codes: [(RPCError.Code, Int)] = [
        (.cancelled, 1), (.unknown, 2), (.invalidArgument, 3), (.deadlineExceeded, 4), (.notFound, 5),
        (.alreadyExists, 6), (.permissionDenied, 7), (.resourceExhausted, 8), (.failedPrecondition, 9),
        (.aborted, 10), (.outOfRange, 11), (.unimplemented, 12), (.internalError, 13), (.unavailable, 14),
        (.dataLoss, 15), (.unauthenticated, 16),
    ]

    @Test(arguments: codes)
    func rpcErrorKeepsItsCodeAndMessage(code: RPCError.Code, number: Int) throws {
        let rpcError = RPCError(code: code, message: "from grpc-swift")
        let error = FleetEngineError(rpcError)
        #expect(error.code.rawValue == number)
        #expect(error.message == "from grpc-swift")
        #expect(error.origin == .bridged)
        #expect(error.details.isEmpty)
        #expect(error.rpcStatus == nil)
        #expect(error.statusDetailsProblem == nil)
        #expect((error.cause as? RPCError) == rpcError)
    }

    @Test(arguments: codes)
    func errorBecomesAnRPCErrorWithTheSameCode(code: RPCError.Code, number: Int) {
        let rpcError = RPCError(FleetEngineError(code: StatusCode(rawValue: number), message: "m"))
        #expect(rpcError.code == code)
        #expect(rpcError.message == "m")
        #expect(rpcError.metadata.isEmpty)
    }

    @Test func binaryStatusDetailsBecomeTypedDetails() throws {
        var metadata = Metadata()
        metadata.addString("ignored", forKey: "x-other")
        metadata.addBinary(
            SampleDetails.statusBytes(code: 8, message: "slow down", details: Self.details),
            forKey: "grpc-status-details-bin")
        let error = FleetEngineError(RPCError(code: .resourceExhausted, message: "quota", metadata: metadata))
        #expect(error.code == .resourceExhausted)
        #expect(error.message == "quota")
        #expect(error.details == Self.details)
        #expect(error.rpcStatus?.message == "slow down")
        #expect(error.retryDelay == .seconds(3))
        #expect(error.isRetryable)
    }

    @Test(arguments: [true, false])
    func base64TextStatusDetailsAreReadToo(padded: Bool) {
        var metadata = Metadata()
        let bytes = SampleDetails.statusBytes(code: 5, message: "gone!", details: [.help(SampleDetails.help)])
        metadata.addString(base64(bytes, padded: padded), forKey: "grpc-status-details-bin")
        let error = FleetEngineError(RPCError(code: .notFound, message: "gone", metadata: metadata))
        #expect(error.details == [.help(SampleDetails.help)])
        #expect(error.statusDetailsProblem == nil)
    }

    @Test func firstStatusDetailsValueIsTheOneRead() {
        var metadata = Metadata()
        metadata.addBinary(
            SampleDetails.statusBytes(code: 5, message: "", details: [.requestInfo(SampleDetails.requestInfo)]),
            forKey: "grpc-status-details-bin")
        metadata.addBinary(
            SampleDetails.statusBytes(code: 5, message: "", details: [.help(SampleDetails.help)]),
            forKey: "grpc-status-details-bin")
        let error = FleetEngineError(RPCError(code: .notFound, message: "", metadata: metadata))
        #expect(error.details == [.requestInfo(SampleDetails.requestInfo)])
    }

    @Test func unreadableBinaryDetailsAreReported() throws {
        var metadata = Metadata()
        metadata.addBinary([0x0A, 0x05, 0x61], forKey: "grpc-status-details-bin")
        let error = FleetEngineError(RPCError(code: .internalError, message: "broken", metadata: metadata))
        #expect(error.code == .internalError)
        #expect(error.message == "broken")
        #expect(error.details.isEmpty)
        let problem = try #require(error.statusDetailsProblem)
        #expect(problem.rawValue == "CgVh")
        #expect(problem.reason.code == .lengthPastEnd)
    }

    @Test func errorBecomesAnRPCErrorWithDetailsMetadata() throws {
        let cause = CancellationError()
        let error = FleetEngineError(
            code: .unavailable, message: "Fleet Engine down", details: Self.details, origin: .status, cause: cause)
        let rpcError = RPCError(error)
        #expect(rpcError.code == .unavailable)
        #expect(rpcError.message == "Fleet Engine down")
        #expect(rpcError.cause is CancellationError)
        let values = Array(rpcError.metadata[binaryValues: "grpc-status-details-bin"])
        #expect(values.count == 1)
        let status = try RPCStatus(serializedBytes: try #require(values.first))
        #expect(status.code == 14)
        #expect(status.message == "Fleet Engine down")
        #expect(status.details.map(StatusDetail.init) == Self.details)

        let back = FleetEngineError(rpcError)
        #expect(back.code == .unavailable)
        #expect(back.message == "Fleet Engine down")
        #expect(back.details == Self.details)
    }

    @Test(arguments: [StatusCode.ok, StatusCode(rawValue: 17), StatusCode(rawValue: -3)])
    func codeGrpcSwiftCannotCarryGoesOutAsUnknown(code: StatusCode) {
        #expect(FleetEngineError(code: code, message: "").rpcErrorCode == .unknown)
    }

    /// Google's clients refuse a `grpc-status-details-bin` whose code is not `grpc-status`
    /// (grpcio-status's `rpc_status.from_call` raises ValueError, so google-api-core does too).
    @Test(arguments: [StatusCode.ok, StatusCode(rawValue: 17), StatusCode(rawValue: 1 << 32 | 5)])
    func detailsOfACodeGrpcSwiftCannotCarryNameTheCodeSent(code: StatusCode) throws {
        let error = FleetEngineError(code: code, message: "odd", details: Self.details, origin: .status)
        let values = Array(error.rpcErrorMetadata[binaryValues: "grpc-status-details-bin"])
        let status = try RPCStatus(serializedBytes: try #require(values.first))
        #expect(status.code == 2)
        #expect(status.message == "odd")
        #expect(status.details.map(StatusDetail.init) == Self.details)
    }

    @Test func statusOKIsNoError() {
        #expect(FleetEngineError(Status(code: .ok, message: "fine")) == nil)
    }

    @Test func nonOKStatusIsAnError() throws {
        let error = try #require(FleetEngineError(Status(code: .unavailable, message: "down")))
        #expect(error.code == .unavailable)
        #expect(error.message == "down")
        #expect(error.origin == .bridged)
    }

    @Test func statusDetailsKeyIsGrpcs() {
        #expect(FleetEngineError.statusDetailsKey == "grpc-status-details-bin")
    }
}
