import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire

/// Decodes the gRPC calls of one HTTP/2 connection from the frames its two endpoints sent.
///
/// Header blocks are put together from HEADERS and CONTINUATION frames and decoded with HPACK
/// per sender; each stream's frames go to the Wire layer's ``GRPCRequestReader`` and
/// ``GRPCResponseReader``, the same readers the live client uses; messages are decoded with the
/// method's types (chosen by `:path`), and each call's end becomes a ``CapturedCallEnd`` with its
/// status. When a header block cannot be decoded (the capture began after the HPACK dynamic table
/// was filled, or bytes went missing), the stream's DATA is still read: its messages are
/// deframed directly, and the method is taken from ``CaptureOptions/methodOverride`` or inferred from
/// the message (``TripServiceSchema``), and marked as inferred.
///
/// Memory grows with the calls that are open, not with the connection's history.
struct HTTP2ConnectionDecoder {
    /// One sender: the client or the server.
    private struct Sender {
        var headerBlocks = HeaderBlockDecoder()
        var pendingBlock: PendingBlock?
    }

    /// A header block whose CONTINUATION frames are still to come.
    private struct PendingBlock {
        var streamID: UInt32
        var fragments: [UInt8]
        var endStream: Bool
        var byteOffset: Int64
    }

    /// What is known of one call.
    private struct Call {
        var request = GRPCRequestReader()
        var response = GRPCResponseReader()
        /// Messages of a side whose header block was lost, read without it.
        var rawRequest: GRPCMessageDeframer?
        var rawResponse: GRPCMessageDeframer?
        var method: String?
        var methodInferred = false
        var requestType: (any ProtobufMessage.Type)?
        var responseType: (any ProtobufMessage.Type)?
        var started: CaptureTimestamp?
        var requestMessages = 0
        var responseMessages = 0

        mutating func setMethod(_ path: String, inferred: Bool) {
            method = path
            methodInferred = inferred
            let types = TripServiceSchema.messageTypes(forPath: path)
            requestType = types?.request
            responseType = types?.response
        }
    }

    private(set) var connection: CapturedConnection
    private let options: CaptureOptions
    private var client = Sender()
    private var server = Sender()
    private var calls: [UInt32: Call] = [:]
    /// Streams whose calls ended, so that a late frame (a WINDOW_UPDATE, a client's RST_STREAM
    /// after the trailers) does not start a call again; the oldest are forgotten, to bound memory.
    private var endedStreams: Set<UInt32> = []
    private var highestStreamID: UInt32 = 0

    init(connection: CapturedConnection, options: CaptureOptions) {
        self.connection = connection
        self.options = options
    }

    /// The number of calls in progress.
    var openCallCount: Int { calls.count }

    /// Takes one frame that the client (`fromClient`) or the server sent.
    mutating func receive(_ frame: CapturedHTTP2Frame, fromClient: Bool, into records: inout [CaptureRecord]) {
        if let pending = (fromClient ? client : server).pendingBlock {
            guard frame.type == .continuation, frame.streamID == pending.streamID else {
                // RFC 9113 section 6.10: nothing may come between a header block's frames.
                problem(
                    .malformedFrame,
                    "a \(frame.type) frame on stream \(frame.streamID) interrupted the header block of stream "
                        + "\(pending.streamID)",
                    frame: frame, into: &records)
                setPending(nil, fromClient: fromClient)
                return receive(frame, fromClient: fromClient, into: &records)
            }
        }
        switch frame.type {
        case .headers:
            let block = PendingBlock(
                streamID: frame.streamID, fragments: Array(frame.payload), endStream: frame.flags.contains(.endStream),
                byteOffset: frame.byteOffset)
            if frame.flags.contains(.endHeaders) {
                headerBlock(block, fromClient: fromClient, timestamp: frame.timestamp, into: &records)
            } else {
                setPending(block, fromClient: fromClient)
            }
        case .continuation:
            guard var block = (fromClient ? client : server).pendingBlock else {
                problem(
                    .malformedFrame, "a CONTINUATION frame on stream \(frame.streamID) follows no header block",
                    frame: frame, into: &records)
                return
            }
            block.fragments.append(contentsOf: frame.payload)
            if frame.flags.contains(.endHeaders) {
                setPending(nil, fromClient: fromClient)
                headerBlock(block, fromClient: fromClient, timestamp: frame.timestamp, into: &records)
            } else {
                setPending(block, fromClient: fromClient)
            }
        case .data:
            data(frame, fromClient: fromClient, into: &records)
        case .rstStream:
            let code = frame.payload.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard var call = existingCall(frame.streamID) else { return }
            let events = call.response.receiveReset(HTTP2ErrorCode(rawValue: code))
            calls[frame.streamID] = call
            responseEvents(
                events, streamID: frame.streamID, timestamp: frame.timestamp, byteOffset: frame.byteOffset,
                into: &records)
        case .settings:
            guard !frame.flags.contains(.ack) else { return }
            settings(frame.payload, fromClient: fromClient)
        default:
            // PING, WINDOW_UPDATE, PRIORITY, GOAWAY and unknown frames change no call's messages.
            break
        }
    }

    /// Ends what is open at the end of the capture or connection: an unfinished header block is
    /// reported, and open calls end with the Wire layer's status for a connection that went away.
    mutating func finish(timestamp: CaptureTimestamp?, into records: inout [CaptureRecord]) {
        for fromClient in [true, false] {
            if let pending = (fromClient ? client : server).pendingBlock {
                records.append(
                    .problem(
                        CaptureProblem(
                            timestamp: timestamp, connection: connection, streamID: pending.streamID,
                            error: CaptureError(
                                code: .malformedFrame,
                                message: "the header block of stream \(pending.streamID) never ended",
                                byteOffset: pending.byteOffset))))
                setPending(nil, fromClient: fromClient)
            }
        }
        for streamID in calls.keys.sorted() {
            guard var call = calls[streamID] else { continue }
            let events = call.response.receiveEndOfConnection(
                requestSent: true, reason: "the capture ended before the call did")
            calls[streamID] = call
            responseEvents(
                events, streamID: streamID, timestamp: timestamp ?? CaptureTimestamp(seconds: 0, nanoseconds: 0),
                byteOffset: nil, into: &records)
        }
        calls.removeAll()
    }

    // MARK: Frames

    private mutating func setPending(_ block: PendingBlock?, fromClient: Bool) {
        if fromClient { client.pendingBlock = block } else { server.pendingBlock = block }
    }

    private mutating func settings(_ payload: ArraySlice<UInt8>, fromClient: Bool) {
        var index = payload.startIndex
        while index + 6 <= payload.endIndex {
            let identifier = UInt16(payload[index]) << 8 | UInt16(payload[index + 1])
            let value = payload[(index + 2)..<(index + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            index += 6
            // RFC 9113 section 6.5.2: SETTINGS_HEADER_TABLE_SIZE bounds the table the *peer*
            // encodes with, so it applies to the header blocks this endpoint receives.
            if identifier == 0x1 {
                if fromClient {
                    server.headerBlocks.setMaxTableSize(Int(value))
                } else {
                    client.headerBlocks.setMaxTableSize(Int(value))
                }
            }
        }
    }

    private mutating func headerBlock(
        _ block: PendingBlock, fromClient: Bool, timestamp: CaptureTimestamp, into records: inout [CaptureRecord]
    ) {
        let fields: [(name: String, value: String)]
        do throws(CaptureError) {
            if fromClient {
                fields = try client.headerBlocks.decode(
                    block.fragments, byteOffset: block.byteOffset, streamID: block.streamID)
            } else {
                fields = try server.headerBlocks.decode(
                    block.fragments, byteOffset: block.byteOffset, streamID: block.streamID)
            }
        } catch {
            records.append(
                .problem(
                    CaptureProblem(timestamp: timestamp, connection: connection, streamID: block.streamID, error: error)
                ))
            lostHeaders(
                streamID: block.streamID, fromClient: fromClient, endStream: block.endStream, timestamp: timestamp)
            return
        }
        if fromClient {
            guard !endedStreams.contains(block.streamID) else { return }
            var call = calls[block.streamID] ?? Call()
            if call.started == nil { call.started = timestamp }
            highestStreamID = max(highestStreamID, block.streamID)
            let events = call.request.receiveHeaders(fields, endStream: block.endStream)
            for event in events {
                if case .requestHead(let head) = event { call.setMethod(head.method.path, inferred: false) }
            }
            calls[block.streamID] = call
            requestEvents(
                events, streamID: block.streamID, timestamp: timestamp, byteOffset: block.byteOffset, into: &records)
        } else {
            guard var call = existingCall(block.streamID) else { return }
            let events = call.response.receiveHeaders(fields, endStream: block.endStream)
            calls[block.streamID] = call
            responseEvents(
                events, streamID: block.streamID, timestamp: timestamp, byteOffset: block.byteOffset, into: &records)
        }
    }

    /// A header block that did not decode: the stream's messages are read without it from now on.
    private mutating func lostHeaders(streamID: UInt32, fromClient: Bool, endStream: Bool, timestamp: CaptureTimestamp)
    {
        guard var call = existingCall(streamID) else { return }
        if call.started == nil, fromClient { call.started = timestamp }
        if fromClient {
            if call.rawRequest == nil { call.rawRequest = GRPCMessageDeframer(maxMessageSize: options.maxMessageSize) }
        } else if call.response.head == nil {
            if call.rawResponse == nil {
                call.rawResponse = GRPCMessageDeframer(maxMessageSize: options.maxMessageSize)
            }
        }
        if call.method == nil, let override = options.methodOverride { call.setMethod(override, inferred: true) }
        calls[streamID] = call
    }

    private mutating func data(_ frame: CapturedHTTP2Frame, fromClient: Bool, into records: inout [CaptureRecord]) {
        guard var call = existingCall(frame.streamID) else { return }
        let endStream = frame.flags.contains(.endStream)
        if fromClient {
            if call.request.head == nil {
                // No request headers (lost, or before the capture): read the messages without them.
                var deframer = call.rawRequest ?? GRPCMessageDeframer(maxMessageSize: options.maxMessageSize)
                let payloads = Self.drain(&deframer, frame.payload)
                call.rawRequest = deframer
                calls[frame.streamID] = call
                for payload in payloads {
                    rawMessage(payload, direction: .request, frame: frame, into: &records)
                }
                return
            }
            let events = call.request.receiveData(frame.payload, endStream: endStream)
            calls[frame.streamID] = call
            requestEvents(
                events, streamID: frame.streamID, timestamp: frame.timestamp, byteOffset: frame.byteOffset,
                into: &records)
        } else {
            if call.response.head == nil, !call.response.isFinished {
                var deframer = call.rawResponse ?? GRPCMessageDeframer(maxMessageSize: options.maxMessageSize)
                let payloads = Self.drain(&deframer, frame.payload)
                call.rawResponse = deframer
                calls[frame.streamID] = call
                for payload in payloads {
                    rawMessage(payload, direction: .response, frame: frame, into: &records)
                }
                return
            }
            let events = call.response.receiveData(frame.payload, endStream: endStream)
            calls[frame.streamID] = call
            responseEvents(
                events, streamID: frame.streamID, timestamp: frame.timestamp, byteOffset: frame.byteOffset,
                into: &records)
        }
    }

    /// The messages complete in a deframer after `bytes`; a message that breaks the framing ends
    /// the reading of that side (its results so far are kept).
    private static func drain(_ deframer: inout GRPCMessageDeframer, _ bytes: ArraySlice<UInt8>) -> [Result<
        [UInt8], WireError
    >] {
        deframer.append(bytes)
        var results: [Result<[UInt8], WireError>] = []
        while true {
            do throws(WireError) {
                guard let message = try deframer.next() else { return results }
                if message.isCompressed {
                    // Without the header block there is no `grpc-encoding` to decompress with.
                    results.append(
                        .failure(
                            WireError(
                                code: .compressedWithoutEncoding,
                                message: "a compressed message on a stream whose headers were not decoded")))
                } else {
                    results.append(.success(message.payload))
                }
            } catch {
                results.append(.failure(error))
                return results
            }
        }
    }

    private mutating func rawMessage(
        _ result: Result<[UInt8], WireError>, direction: CallDirection, frame: CapturedHTTP2Frame,
        into records: inout [CaptureRecord]
    ) {
        switch result {
        case .success(let payload):
            message(
                payload, direction: direction, streamID: frame.streamID, timestamp: frame.timestamp,
                byteOffset: frame.byteOffset, into: &records)
        case .failure(let error):
            problem(.malformedFrame, "\(direction) message: \(error)", frame: frame, into: &records)
        }
    }

    // MARK: Calls

    /// The call on `streamID`, made when the capture shows a stream it did not see begin.
    private mutating func existingCall(_ streamID: UInt32) -> Call? {
        if let call = calls[streamID] { return call }
        guard !endedStreams.contains(streamID) else { return nil }
        highestStreamID = max(highestStreamID, streamID)
        var call = Call()
        if let override = options.methodOverride { call.setMethod(override, inferred: true) }
        return call
    }

    private mutating func requestEvents(
        _ events: [GRPCRequestReader.Event], streamID: UInt32, timestamp: CaptureTimestamp, byteOffset: Int64,
        into records: inout [CaptureRecord]
    ) {
        for event in events {
            switch event {
            case .message(let payload):
                message(
                    payload, direction: .request, streamID: streamID, timestamp: timestamp, byteOffset: byteOffset,
                    into: &records)
            case .failed(let error):
                records.append(
                    .problem(
                        CaptureProblem(
                            timestamp: timestamp, connection: connection, streamID: streamID,
                            error: CaptureError(
                                code: .malformedFrame, message: "the request of stream \(streamID): \(error.message)",
                                byteOffset: byteOffset, cause: error))))
            case .requestHead, .end, .reset:
                break
            }
        }
    }

    private mutating func responseEvents(
        _ events: [GRPCResponseReader.Event], streamID: UInt32, timestamp: CaptureTimestamp, byteOffset: Int64?,
        into records: inout [CaptureRecord]
    ) {
        for event in events {
            switch event {
            case .message(let payload):
                message(
                    payload, direction: .response, streamID: streamID, timestamp: timestamp,
                    byteOffset: byteOffset ?? 0, into: &records)
            case .end(let status, _):
                guard let call = calls.removeValue(forKey: streamID) else { continue }
                endedStreams.insert(streamID)
                if endedStreams.count > 8_192 {
                    // Client stream ids only grow (RFC 9113 section 5.1.1): old ones do not return.
                    let horizon = highestStreamID > 16_384 ? highestStreamID - 16_384 : 0
                    endedStreams = endedStreams.filter { $0 >= horizon }
                }
                records.append(
                    .callEnd(
                        CapturedCallEnd(
                            timestamp: timestamp, connection: connection, streamID: streamID, method: call.method,
                            methodInferred: call.methodInferred, status: status,
                            latencyNanoseconds: call.started.map { timestamp.nanoseconds(since: $0) },
                            requestMessageCount: call.requestMessages, responseMessageCount: call.responseMessages)))
            case .responseHead:
                break
            }
        }
    }

    private mutating func message(
        _ payload: [UInt8], direction: CallDirection, streamID: UInt32, timestamp: CaptureTimestamp, byteOffset: Int64,
        into records: inout [CaptureRecord]
    ) {
        guard var call = calls[streamID] ?? existingCall(streamID) else { return }
        if call.method == nil, direction == .request,
            let inferred = TripServiceSchema.inferMethod(fromRequest: payload[...])
        {
            call.setMethod(inferred.path, inferred: true)
        }
        var type = direction == .request ? call.requestType : call.responseType
        if type == nil, call.method == nil, direction == .response {
            type = TripServiceSchema.inferResponseType(payload[...])
        }
        var decoded: (any ProtobufMessage)?
        var decodingError: CodecError?
        if let type {
            do throws(CodecError) {
                decoded = try type.init(serializedBytes: payload, options: DecodingOptions())
            } catch {
                decodingError = error
            }
        }
        if direction == .request { call.requestMessages += 1 } else { call.responseMessages += 1 }
        calls[streamID] = call
        records.append(
            .message(
                CapturedMessage(
                    timestamp: timestamp, connection: connection, streamID: streamID, direction: direction,
                    method: call.method, methodInferred: call.methodInferred, message: decoded, payload: payload,
                    decodingError: decodingError, byteOffset: byteOffset)))
    }

    private func problem(
        _ code: CaptureError.Code, _ message: String, frame: CapturedHTTP2Frame, into records: inout [CaptureRecord]
    ) {
        records.append(
            .problem(
                CaptureProblem(
                    timestamp: frame.timestamp, connection: connection, streamID: frame.streamID,
                    error: CaptureError(code: code, message: message, byteOffset: frame.byteOffset))))
    }
}
