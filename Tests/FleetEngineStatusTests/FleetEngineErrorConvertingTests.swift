import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

@Suite("FleetEngineError(converting:)")
struct FleetEngineErrorConvertingTests {
    @Test func fleetEngineErrorStaysAsItIs() {
        let original = FleetEngineError(
            code: .notFound, message: "gone", details: [.help(SampleDetails.help)], origin: .status)
        let converted = FleetEngineError(converting: original)
        #expect(converted.code == .notFound)
        #expect(converted.message == "gone")
        #expect(converted.details == original.details)
        #expect(converted.origin == .status)
        #expect(converted.cause == nil)
    }

    @Test func cancellationIsCancelledAndLocal() {
        let converted = FleetEngineError(converting: CancellationError())
        #expect(converted.code == .cancelled)
        #expect(converted.message == "the call was cancelled")
        #expect(converted.origin == .local)
        #expect(!converted.requestWasProcessed)
        #expect(converted.cause is CancellationError)
    }

    @Test func codecErrorIsInternalAndAMalformedResponse() throws {
        let codecError: CodecError
        do {
            _ = try RPCStatus(serializedBytes: [0x0A, 0x05, 0x61])
            Issue.record("the bytes decoded")
            return
        } catch {
            codecError = error
        }
        let converted = FleetEngineError(converting: codecError)
        #expect(converted.code == .internalError)
        #expect(converted.message == "a message could not be decoded: \(codecError)")
        #expect(converted.origin == .malformedResponse)
        #expect((converted.cause as? CodecError)?.code == .lengthPastEnd)
        #expect(converted.family == .serviceFault)
    }

    @Test func grpcDomainNSErrorKeepsItsCode() {
        let converted = FleetEngineError(
            converting: NSError(domain: "io.grpc", code: 14, userInfo: [NSLocalizedDescriptionKey: "unreachable"]))
        #expect(converted.code == .unavailable)
        #expect(converted.message == "unreachable")
        #expect(converted.origin == .bridged)
        #expect(converted.family == .serverOrNetwork)
        #expect((converted.cause as? BridgedNSError)?.code == 14)
    }

    @Test func otherNSErrorIsUnknown() {
        let source = NSError(domain: "com.example", code: 3, userInfo: [NSLocalizedDescriptionKey: "broke"])
        let converted = FleetEngineError(converting: source)
        #expect(converted.code == .unknown)
        #expect(converted.message == "com.example error 3: broke")
        #expect(converted.origin == .bridged)
        // The NSError itself is not Sendable; its parts are kept instead.
        let cause = converted.cause as? BridgedNSError
        #expect(cause?.domain == "com.example")
        #expect(cause?.code == 3)
        #expect(cause?.description == "broke")
    }

    struct PlainError: Error, CustomStringConvertible {
        var description: String { "plain failure" }
    }

    @Test func anyOtherErrorIsUnknownWithItsDescription() {
        let converted = FleetEngineError(converting: PlainError())
        #expect(converted.code == .unknown)
        #expect(converted.message == "plain failure")
        #expect(converted.origin == .bridged)
        #expect(converted.cause is PlainError)
    }
}
