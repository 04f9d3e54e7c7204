import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import FleetEngineTestSupport
import GRPCCore
import Testing

@Suite("FleetEngineError(converting:) with grpc-swift linked")
struct RPCErrorConvertingTests {
    @Test func rpcErrorKeepsCodeMessageAndDetails() {
        var metadata = Metadata()
        metadata.addBinary(
            SampleDetails.statusBytes(code: 7, message: "", details: [.errorInfo(SampleDetails.errorInfo)]),
            forKey: "grpc-status-details-bin")
        let converted = FleetEngineError(
            converting: RPCError(code: .permissionDenied, message: "denied", metadata: metadata))
        #expect(converted.code == .permissionDenied)
        #expect(converted.message == "denied")
        #expect(converted.details == [.errorInfo(SampleDetails.errorInfo)])
        #expect(converted.origin == .bridged)
        #expect(converted.cause is RPCError)
    }

    @Test func rpcErrorInsideAnyErrorIsStillRecognised() {
        let error: any Error = RPCError(code: .unavailable, message: "down")
        let converted = FleetEngineError(converting: error)
        #expect(converted.code == .unavailable)
        #expect(converted.message == "down")
        #expect(converted.origin == .bridged)
    }

    @Test func rpcErrorSaysWhichFleetEngineErrorItIs() {
        let rpcError = RPCError(code: .notFound, message: "no such trip")
        #expect(rpcError.fleetEngineError == FleetEngineError(rpcError))
    }
}
