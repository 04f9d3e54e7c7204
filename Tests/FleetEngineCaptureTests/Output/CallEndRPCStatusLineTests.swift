import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Foundation
import Testing

/// A `grpc-status-details-bin` whose `google.rpc.Status` carries a detail of a type the codec does
/// not know (a service's own error detail): the status still has it (`.other`), and the call's
/// JSON line keeps `rpcStatus`, with that detail's bytes and why it was not read.
@Suite("A call's JSON line keeps rpcStatus when a detail's type is unknown")
struct CallEndRPCStatusLineTests {
    @Test("a status detail of an unknown type: rpcStatus has the code, the message, and the detail's type and bytes")
    func unknownDetailTypeKeepsRPCStatus() throws {
        func length(_ count: Int) -> [UInt8] { [UInt8(count)] }
        let typeURL = Array("type.googleapis.com/example.v1.CustomDetail".utf8)
        let value: [UInt8] = [0x08, 0x01]
        let any = [0x0A] + length(typeURL.count) + typeURL + [0x12] + length(value.count) + value
        let message = Array("no such trip".utf8)
        let status = [0x08, 0x05, 0x12] + length(message.count) + message + [0x1A] + length(any.count) + any

        var conversation = GRPCConversation()
        try conversation.request(HTTP2StreamDecoderTests.getRequest(), method: .getTrip, streamID: 1)
        conversation.headers(
            [
                (":status", "200"), ("content-type", "application/grpc"), ("grpc-status", "5"),
                ("grpc-message", "no such trip"),
                ("grpc-status-details-bin", Data(status).base64EncodedString()),
            ],
            streamID: 1, endStream: true, fromClient: false)
        var decoder = HTTP2StreamDecoder()
        let records =
            decoder.receive(conversation.clientBytes[...], fromClient: true, byteOffset: 0)
            + decoder.receive(conversation.serverBytes[...], fromClient: false, byteOffset: 0) + decoder.finish()
        let end = try #require(records.callEnds.first)
        #expect(end.status.code == .notFound)
        #expect(end.status.rpcStatus != nil)

        let line = try #require(
            try JSONSerialization.jsonObject(with: Data(CaptureRecord.callEnd(end).jsonLine)) as? [String: Any])
        let rpcStatus = try #require((line["status"] as? [String: Any])?["rpcStatus"] as? [String: Any])
        #expect(rpcStatus["code"] as? Int == 5)
        #expect(rpcStatus["message"] as? String == "no such trip")
        let details = try #require(rpcStatus["details"] as? [[String: Any]])
        #expect(details.count == 1)
        #expect(details.first?["@type"] as? String == "type.googleapis.com/example.v1.CustomDetail")
        #expect(details.first?["value"] as? String == Data(value).base64EncodedString())
        #expect(details.first?["decodingError"] is String)
    }
}
