import FleetEngineCodec
import FleetEngineStatus

extension CaptureRecord {
    /// The record as one JSON object on one line, with its line feed: the form `fleettrips
    /// capture` prints.
    ///
    /// - A message: `time` (seconds since the epoch, with nine decimals), `connection` (`client ->
    ///   server`), `stream`, `direction` (`request` or `response`), `method` (the `:path`, or null),
    ///   `methodInferred` and `headersUncertain` (each only when true), `type` (the full message
    ///   name, or null without a schema), `message` (proto3 JSON; without a schema, the fields as
    ///   `[{"field", "wireType", "value"}]`), and `decodingError` when the message did not decode
    ///   with its schema.
    /// - The end of a call: `time`, `connection`, `stream`, `method` (with `methodInferred` and
    ///   `headersUncertain` as for a message), `status` (`code`, `name`,
    ///   `message`, and `rpcStatus`, the `google.rpc.Status` in proto3 JSON, when the trailers
    ///   carried one), `error` (the typed error: `code`, `name`, `family`, `message`, `origin`) when
    ///   the call failed, `latencyMicros` when the capture saw the call begin, and the message counts.
    /// - A problem: `time`, `connection` and `stream` where known, and `problem` (`code`,
    ///   `message`, `byteOffset`).
    public var jsonLine: [UInt8] {
        var line: [UInt8] = []
        appendJSONLine(to: &line)
        return line
    }

    /// Appends ``jsonLine`` to `output`, without building it on its own first.
    public func appendJSONLine(to output: inout [UInt8]) {
        var writer = JSONWriter(appendingTo: output)
        output = []
        write(to: &writer)
        output = writer.takeBytes()
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .message(let message):
            Self.writePlace(
                &writer, timestamp: message.timestamp, connection: message.connection, streamID: message.streamID)
            writer.key("direction")
            writer.string(message.direction.rawValue)
            Self.writeMethod(
                &writer, message.method, inferred: message.methodInferred, uncertain: message.headersUncertain)
            writer.key("type")
            if let typeName = message.typeName { writer.string(typeName) } else { writer.null() }
            writer.key("message")
            let written = message.message.map { (try? writer.message($0)) != nil } ?? false
            if !written {
                Self.writeFields(&writer, message.payload[...], depth: 0)
            }
            if let error = message.decodingError {
                writer.key("decodingError")
                writer.string(error.description)
            }
        case .callEnd(let end):
            Self.writePlace(&writer, timestamp: end.timestamp, connection: end.connection, streamID: end.streamID)
            Self.writeMethod(&writer, end.method, inferred: end.methodInferred, uncertain: end.headersUncertain)
            writer.key("status")
            writer.beginObject()
            writer.key("code")
            writer.integer(end.status.code.rawValue)
            writer.key("name")
            if let name = end.status.code.name { writer.string(name) } else { writer.null() }
            writer.key("message")
            writer.string(end.status.message)
            if let rpcStatus = end.status.rpcStatus {
                writer.key("rpcStatus")
                Self.writeRPCStatus(&writer, rpcStatus)
            }
            writer.endObject()
            if let error = end.error {
                writer.key("error")
                writer.beginObject()
                writer.key("code")
                writer.integer(error.code.rawValue)
                writer.key("name")
                if let name = error.code.name { writer.string(name) } else { writer.null() }
                writer.key("family")
                writer.string(error.family.description)
                writer.key("message")
                writer.string(error.message)
                writer.key("origin")
                writer.string(error.origin.description)
                writer.endObject()
            }
            if let latency = end.latencyNanoseconds {
                writer.key("latencyMicros")
                writer.integer(latency / 1_000)
            }
            writer.key("requestMessages")
            writer.integer(end.requestMessageCount)
            writer.key("responseMessages")
            writer.integer(end.responseMessageCount)
        case .problem(let problem):
            if let timestamp = problem.timestamp {
                writer.key("time")
                writer.raw(timestamp.description.utf8)
            }
            if let connection = problem.connection {
                writer.key("connection")
                writer.string(connection.description)
            }
            if let streamID = problem.streamID {
                writer.key("stream")
                writer.integer(streamID)
            }
            writer.key("problem")
            writer.beginObject()
            writer.key("code")
            writer.string(problem.error.code.description)
            writer.key("message")
            writer.string(problem.error.message)
            if let byteOffset = problem.error.byteOffset {
                writer.key("byteOffset")
                writer.integer(byteOffset)
            }
            writer.endObject()
        }
        writer.endObject()
        writer.endLine()
    }

    private static func writePlace(
        _ writer: inout JSONWriter, timestamp: CaptureTimestamp, connection: CapturedConnection, streamID: UInt32
    ) {
        writer.key("time")
        writer.raw(timestamp.description.utf8)
        writer.key("connection")
        writer.string(connection.description)
        writer.key("stream")
        writer.integer(streamID)
    }

    private static func writeMethod(
        _ writer: inout JSONWriter, _ method: String?, inferred: Bool, uncertain: Bool
    ) {
        writer.key("method")
        if let method { writer.string(method) } else { writer.null() }
        if inferred {
            writer.key("methodInferred")
            writer.bool(true)
        }
        if uncertain {
            writer.key("headersUncertain")
            writer.bool(true)
        }
    }

    /// A message without its schema: each field's number, wire type and value; a length-delimited
    /// value is shown as a nested message when it parses as one, as text when it is UTF-8, and
    /// otherwise as base64.
    private static func writeFields(_ writer: inout JSONWriter, _ bytes: ArraySlice<UInt8>, depth: Int) {
        guard let fields = WireField.fields(of: bytes) else {
            writer.beginObject()
            writer.key("bytes")
            writer.string(Base64.encode(bytes))
            writer.endObject()
            return
        }
        writer.beginArray()
        for field in fields {
            writer.arrayElement()
            writer.beginObject()
            writer.key("field")
            writer.integer(field.number)
            writer.key("wireType")
            switch field.value {
            case .varint(let value):
                writer.string("varint")
                writer.key("value")
                writer.integer(value)
            case .fixed64(let value):
                writer.string("fixed64")
                writer.key("value")
                writer.integer(value)
            case .fixed32(let value):
                writer.string("fixed32")
                writer.key("value")
                writer.integer(value)
            case .lengthDelimited(let value):
                writer.string("len")
                if depth < 16, !value.isEmpty, let nested = WireField.fields(of: value), !nested.isEmpty,
                    !Self.isPrintableText(value)
                {
                    writer.key("message")
                    writeFields(&writer, value, depth: depth + 1)
                } else if let text = String(validating: value, as: UTF8.self) {
                    writer.key("string")
                    writer.string(text)
                } else {
                    writer.key("bytes")
                    writer.string(Base64.encode(value))
                }
            }
            writer.endObject()
        }
        writer.endArray()
    }

    /// Whether `bytes` read as text a person wrote: printable ASCII or UTF-8, no control bytes.
    private static func isPrintableText(_ bytes: ArraySlice<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil && !bytes.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x09 }
    }
}
