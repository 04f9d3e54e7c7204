import FleetEngineCodec
import FleetEngineStatus

extension StatusDetail {
    /// The detail as proto3 JSON prints a `google.protobuf.Any`: `"@type"` and the detail's fields,
    /// as the codec writes it.
    ///
    /// A detail the codec cannot print (a type it does not know, bytes that do not decode as the
    /// type named, an empty type URL) is `{"@type": url, "value": base64}` instead, so that one
    /// strange entry never hides the others.
    var jsonObject: String {
        let any = anyMessage
        if !any.typeURL.isEmpty, let json = try? any.jsonString() {
            return json
        }
        var object = JSONObjectWriter()
        object.member("@type", .string(any.typeURL))
        object.member("value", .string(Self.base64(any.value)))
        return object.result
    }

    /// One line for a person: the type's name and its fields in proto3 JSON, or the type URL and
    /// why it cannot be shown.
    var textLine: String {
        let any = anyMessage
        if case .undecodable(_, let reason) = self {
            return "\(any.typeURL), whose bytes do not decode: \(reason); value in base64: \(Self.base64(any.value))"
        }
        guard let type = MessageRegistry.messageType(named: typeName) else {
            return "\(any.typeURL), a type this tool does not know; value in base64: \(Self.base64(any.value))"
        }
        do {
            return "\(typeName) " + (try type.init(serializedBytes: any.value).jsonString())
        } catch {
            return "\(any.typeURL), whose bytes do not decode: \(error); value in base64: \(Self.base64(any.value))"
        }
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        String(decoding: Base64Text.encode(bytes), as: UTF8.self)
    }
}
