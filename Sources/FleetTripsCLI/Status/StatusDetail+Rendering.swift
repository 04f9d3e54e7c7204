import FleetEngineCodec
import FleetEngineStatus

extension StatusDetail {
    /// The detail as proto3 JSON prints a `google.protobuf.Any`: `"@type"` and the detail's fields,
    /// as the codec writes it.
    ///
    /// A detail the codec cannot print (a type it does not know, bytes that do not decode as the
    /// type named, an empty type URL) is `{"@type": url, "value": base64, "decodingError": why}`
    /// instead, so that one strange entry never hides the others. The `decodingError` tells it from
    /// a well-known type whose proto3 JSON is also a `"value"` (`google.protobuf.BytesValue`), as
    /// `fleettrips capture` writes such a detail.
    var jsonObject: String {
        let any = anyMessage
        let reason: String
        if case .undecodable(_, let cause) = self {
            reason = cause.description
        } else if any.typeURL.isEmpty {
            reason = Self.missingTypeURL
        } else {
            do {
                return try any.jsonString()
            } catch {
                reason =
                    MessageRegistry.messageType(named: typeName) == nil ? Self.unknownType : error.description
            }
        }
        var object = JSONObjectWriter()
        object.member("@type", .string(any.typeURL))
        object.member("value", .string(Base64.encode(any.value)))
        object.member("decodingError", .string(reason))
        return object.result
    }

    /// Why a detail with an empty type URL is not decoded.
    private static let missingTypeURL = "the detail has no type URL"
    /// Why a detail of a type outside Protos/ is not decoded.
    private static let unknownType = "a type this tool does not know"

    /// One line for a person: the type's name and its fields in proto3 JSON, or the type URL and
    /// why it cannot be shown.
    var textLine: String {
        let any = anyMessage
        if case .undecodable(_, let reason) = self {
            return "\(any.typeURL), whose bytes do not decode: \(reason); value in base64: \(Base64.encode(any.value))"
        }
        if any.typeURL.isEmpty {
            return "a detail without a type URL; value in base64: \(Base64.encode(any.value))"
        }
        guard let type = MessageRegistry.messageType(named: typeName) else {
            return "\(any.typeURL), \(Self.unknownType); value in base64: \(Base64.encode(any.value))"
        }
        do {
            return "\(typeName) " + (try type.init(serializedBytes: any.value).jsonString())
        } catch {
            return "\(any.typeURL), whose bytes do not decode: \(error); value in base64: \(Base64.encode(any.value))"
        }
    }
}
