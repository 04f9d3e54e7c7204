import FleetEngineCodec
import FleetEngineStatus
import Testing

@testable import FleetEngineClient

@Suite("A token that runs across the google.rpc.Status structure is still taken out")
struct TokenRedactionFallbackTests {
    @Test("the overwritten status no longer decodes: its details are withheld, and the message says so")
    func tokenAcrossAFieldBoundary() throws {
        // The message ends in "abcdef"; an unknown field 4 follows (tag 0x22 '"', length 0x28 '('),
        // so the token `abcdef"(` is the message's end and the next field's tag and length.
        var status = RPCStatus()
        status.code = 16
        status.message = "refused abcdef"
        status.unknownFields = try UnknownFields(validating: [0x22, 0x28] + [UInt8](repeating: 0, count: 40))
        var error = FleetEngineError(code: .unauthenticated, message: "refused", origin: .status)
        error.rpcStatus = status
        error.details = [.localizedMessage(LocalizedMessage())]
        let token = "abcdef\"("
        #expect(String(decoding: status.serializedBytes(), as: UTF8.self).contains(token))
        let redaction = try #require(TokenRedaction(token: token))
        let redacted = redaction.apply(to: error)
        #expect(redacted.rpcStatus == nil)
        #expect(redacted.details.isEmpty)
        #expect(redacted.message == "refused (the status details were withheld: they held the token)")
        #expect(redacted.code == .unauthenticated)
    }

    @Test("an error without the token is returned as it was")
    func untouched() throws {
        var status = RPCStatus()
        status.code = 5
        status.message = "no such trip"
        var error = FleetEngineError(code: .notFound, message: "no such trip", origin: .status)
        error.rpcStatus = status
        let redacted = try #require(TokenRedaction(token: "a-token-of-some-length")).apply(to: error)
        #expect(redacted.message == "no such trip")
        #expect(redacted.rpcStatus == status)
    }
}
