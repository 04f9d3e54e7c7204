import FleetEngineCapture
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import NIOCore
import NIOHPACK

/// Builds the two byte streams of an HTTP/2 connection carrying gRPC calls, frame by frame, as a
/// client and a server would write them: the preface and SETTINGS, then per call the request
/// HEADERS and DATA, and the response HEADERS, DATA and trailers, HPACK-encoded by NIOHPACK.
struct GRPCConversation {
    private(set) var clientBytes: [UInt8]
    private(set) var serverBytes: [UInt8]
    /// Both directions' frames in the order they were written, for an interleaved stream.
    private(set) var interleavedBytes: [UInt8]
    private var clientEncoder = HPACKEncoder(allocator: ByteBufferAllocator())
    private var serverEncoder = HPACKEncoder(allocator: ByteBufferAllocator())
    var maxFrameLength = 16_384

    /// The preface and SETTINGS; with `clientMaxFrameSize`, the client's SETTINGS also carry
    /// SETTINGS_MAX_FRAME_SIZE.
    init(clientMaxFrameSize: UInt32? = nil) {
        let settings = Self.frame(type: 0x4, flags: 0, streamID: 0, payload: [0x00, 0x03, 0x00, 0x00, 0x00, 0x64])
        var clientSettings = settings
        if let size = clientMaxFrameSize {
            clientSettings = Self.frame(
                type: 0x4, flags: 0, streamID: 0,
                payload: [0x00, 0x03, 0x00, 0x00, 0x00, 0x64, 0x00, 0x05]
                    + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        }
        clientBytes = HTTP2FrameReader.clientPreface + clientSettings
        serverBytes = settings
        interleavedBytes = clientBytes + serverBytes
    }

    /// One frame: the 9-byte header of RFC 9113 section 4.1 and the payload.
    static func frame(type: UInt8, flags: UInt8, streamID: UInt32, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [
            UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
            UInt8(streamID >> 24 & 0x7F), UInt8(streamID >> 16 & 0xFF), UInt8(streamID >> 8 & 0xFF),
            UInt8(streamID & 0xFF),
        ] + payload
    }

    mutating func append(_ frame: [UInt8], fromClient: Bool) {
        if fromClient { clientBytes += frame } else { serverBytes += frame }
        interleavedBytes += frame
    }

    /// The HEADERS frame (and CONTINUATIONs when the block is longer than `fragmentLength`).
    mutating func headers(
        _ fields: [(name: String, value: String)], streamID: UInt32, endStream: Bool, fromClient: Bool,
        fragmentLength: Int? = nil, padding: Int = 0
    ) {
        var buffer = ByteBuffer()
        var headers = HPACKHeaders()
        for field in fields { headers.add(name: field.name, value: field.value) }
        if fromClient {
            try? clientEncoder.encode(headers: headers, to: &buffer)
        } else {
            try? serverEncoder.encode(headers: headers, to: &buffer)
        }
        let block = Array(buffer.readableBytesView)
        let first = fragmentLength.map { Array(block.prefix($0)) } ?? block
        var flags: UInt8 = endStream ? 0x1 : 0
        if first.count == block.count { flags |= 0x4 }
        var payload = first
        if padding > 0 {
            flags |= 0x8
            payload = [UInt8(padding)] + first + [UInt8](repeating: 0, count: padding)
        }
        append(Self.frame(type: 0x1, flags: flags, streamID: streamID, payload: payload), fromClient: fromClient)
        var rest = block.dropFirst(first.count)
        while !rest.isEmpty {
            let piece = rest.prefix(fragmentLength ?? rest.count)
            rest = rest.dropFirst(piece.count)
            append(
                Self.frame(type: 0x9, flags: rest.isEmpty ? 0x4 : 0, streamID: streamID, payload: Array(piece)),
                fromClient: fromClient)
        }
    }

    /// DATA frames carrying `bytes`, cut at the maximum frame length.
    mutating func data(_ bytes: [UInt8], streamID: UInt32, endStream: Bool, fromClient: Bool, padding: Int = 0) {
        var rest = bytes[...]
        repeat {
            let piece = rest.prefix(maxFrameLength - (padding > 0 ? padding + 1 : 0))
            rest = rest.dropFirst(piece.count)
            var flags: UInt8 = rest.isEmpty && endStream ? 0x1 : 0
            var payload = Array(piece)
            if padding > 0 {
                flags |= 0x8
                payload = [UInt8(padding)] + payload + [UInt8](repeating: 0, count: padding)
            }
            append(Self.frame(type: 0x0, flags: flags, streamID: streamID, payload: payload), fromClient: fromClient)
        } while !rest.isEmpty
    }

    /// The request side of a call: headers as the Wire layer builds them, then the framed message.
    mutating func request(
        _ message: some ProtobufMessage, method: GRPCMethodPath, streamID: UInt32, encoding: MessageEncoding = .identity
    ) throws {
        let head = try GRPCRequestHead(
            method: method, authority: "fleetengine.googleapis.com", scheme: .https,
            timeout: GRPCTimeout(.seconds(15)), userAgent: "capture-tests", encoding: encoding)
        headers(head.headerFields, streamID: streamID, endStream: false, fromClient: true)
        let framed = try GRPCMessageFramer(encoding: encoding).frame(message.serializedBytes())
        data(framed, streamID: streamID, endStream: true, fromClient: true)
    }

    /// The response side of a call: headers, the framed message (when given) and the trailers.
    mutating func response(
        _ message: (some ProtobufMessage)?, status: CallStatus, streamID: UInt32, encoding: MessageEncoding = .identity
    ) throws {
        let trailers = Self.trailerFields(status)
        guard let message else {
            // Trailers-Only (gRPC PROTOCOL-HTTP2, "Responses").
            headers(
                [(":status", "200"), ("content-type", "application/grpc")] + trailers, streamID: streamID,
                endStream: true, fromClient: false)
            return
        }
        var fields = [(name: ":status", value: "200"), (name: "content-type", value: "application/grpc")]
        if encoding != .identity { fields.append((name: "grpc-encoding", value: encoding.rawValue)) }
        headers(fields, streamID: streamID, endStream: false, fromClient: false)
        data(
            try GRPCMessageFramer(encoding: encoding).frame(message.serializedBytes()), streamID: streamID,
            endStream: false, fromClient: false)
        headers(trailers, streamID: streamID, endStream: true, fromClient: false)
    }

    /// Answers each of `streamIDs`, in order, with a three-point trip and an OK status.
    mutating func answerWithTrips(_ streamIDs: [UInt32]) throws {
        for streamID in streamIDs {
            try response(HTTP2StreamDecoderTests.trip(points: 3), status: CallStatus(code: .ok), streamID: streamID)
        }
    }

    static func trailerFields(_ status: CallStatus) -> [(name: String, value: String)] {
        let values = status.trailerValues
        var fields = [(name: "grpc-status", value: values.grpcStatus)]
        if let message = values.grpcMessage { fields.append((name: "grpc-message", value: message)) }
        if let details = values.grpcStatusDetailsBin {
            fields.append((name: "grpc-status-details-bin", value: details))
        }
        return fields
    }
}

extension Array where Element == CaptureRecord {
    var messages: [CapturedMessage] {
        compactMap { if case .message(let message) = $0 { message } else { nil } }
    }

    var callEnds: [CapturedCallEnd] {
        compactMap { if case .callEnd(let end) = $0 { end } else { nil } }
    }

    var problems: [CaptureProblem] {
        compactMap { if case .problem(let problem) = $0 { problem } else { nil } }
    }
}
