import FleetEngineCodec

extension CaptureRecord {
    /// Writes a call's `google.rpc.Status` (from `grpc-status-details-bin`) as proto3 JSON.
    ///
    /// Proto3 JSON cannot write a `google.protobuf.Any` whose type the codec does not know (a
    /// service's own error detail; Google's `json_format` refuses it too), and the status is not
    /// dropped for it: the status is then written field by field, each detail the codec knows as
    /// proto3 JSON, and each other one as its `@type`, its `value` in base64 (the bytes the server
    /// sent) and the `decodingError` that kept it from being read.
    static func writeRPCStatus(_ writer: inout JSONWriter, _ status: RPCStatus) {
        if (try? writer.message(status)) != nil { return }
        writer.beginObject()
        if status.code != 0 {
            writer.key("code")
            writer.integer(status.code)
        }
        if !status.message.isEmpty {
            writer.key("message")
            writer.string(status.message)
        }
        writer.key("details")
        writer.beginArray()
        for detail in status.details {
            writer.arrayElement()
            do throws(CodecError) {
                try writer.message(detail)
            } catch {
                writer.beginObject()
                writer.key("@type")
                writer.string(detail.typeURL)
                writer.key("value")
                writer.string(Base64.encode(detail.value))
                writer.key("decodingError")
                writer.string(error.description)
                writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
    }
}
