import FleetEngineCodec
public import FleetEngineStatus

/// Reads the response side of one gRPC call from what arrives on its HTTP/2 stream, without
/// doing any I/O: header blocks, DATA payloads, RST_STREAM, the end of the connection.
///
/// Each `receive` method returns the ``Event``s its input produced: the response head, messages
/// (decompressed), and finally ``Event/end(_:trailers:)`` with the call's status. Every way a
/// response can end becomes a `CallStatus`, as gRPC PROTOCOL-HTTP2 "Responses" and "Errors" ask:
///
/// - headers, messages, trailers with `grpc-status`: the server's status;
/// - Trailers-Only (one HEADERS frame with END_STREAM): its `grpc-status`, or, without one, the
///   HTTP status mapped by http-grpc-status-mapping.md;
/// - a `:status` other than 200 or a content type other than `application/grpc`: the HTTP
///   mapping (UNKNOWN for 200), with a message saying what arrived;
/// - RST_STREAM: the "Errors" table (`CallStatus(rstStreamErrorCode:)`);
/// - a message over ``maxMessageSize``: RESOURCE_EXHAUSTED, as gRPC's libraries do;
/// - a stream that breaks the protocol (DATA before headers, a stream ending inside a message or
///   without trailers, a compressed message with no usable `grpc-encoding`, a header block that
///   RFC 9113 makes malformed: a repeated, misplaced or unknown pseudo-header, a pseudo-header in
///   the trailers, a field name or value with bytes it forbids, a connection-specific field; a
///   repeated `grpc-status`): INTERNAL with origin
///   `.malformedResponse`, saying what and where (the byte offset in the response's DATA, the
///   field's position in its block).
///
/// After ``Event/end(_:trailers:)`` the reader is finished and ignores what it is given, except
/// that the server's end of the stream is still recorded. When it ended the call before the
/// server ended the stream, ``shouldResetStream`` is true: the caller resets the stream with
/// CANCEL, as gRPC's clients do. (When the trailers arrive while the client is still sending,
/// PROTOCOL-HTTP2 "Early Server Closure" asks it to send RST_STREAM NO_ERROR; only the caller
/// knows that, so it is the caller's to do.)
public struct GRPCResponseReader: Sendable {
    /// The largest message accepted, in bytes, before and after decompression.
    public var maxMessageSize: Int { deframer.maxMessageSize }
    private var state = CallStreamState.awaitingHead
    private var deframer: GRPCMessageDeframer
    /// The response head, once it has arrived.
    public private(set) var head: GRPCResponseHead?
    /// How many messages have been returned.
    public private(set) var messageCount = 0
    /// The bytes its message buffer holds or has reserved (``GRPCMessageDeframer/bufferCapacity``).
    public var bufferCapacity: Int { deframer.bufferCapacity }
    /// The status the call ended with, once it has ended.
    public private(set) var status: CallStatus?
    /// The trailers' custom metadata, once the call has ended (empty when it ended without any).
    public private(set) var trailers: GRPCMetadata?
    /// Whether the server ended its side of the stream (END_STREAM or RST_STREAM), or the
    /// connection went away.
    public private(set) var isStreamClosedByPeer = false

    /// A reader for one call's response.
    ///
    /// - Parameter maxMessageSize: The largest response message accepted, before and after
    ///   decompression; gRPC's default is 4 MiB.
    public init(maxMessageSize: Int = GRPCMessageDeframer.defaultMaxMessageSize) {
        self.deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize)
    }

    /// Whether the call has ended: ``Event/end(_:trailers:)`` has been returned.
    public var isFinished: Bool { status != nil }

    /// Whether the reader ended the call while the server's side of the stream is still open, so
    /// the caller should send RST_STREAM with CANCEL to release it.
    public var shouldResetStream: Bool { isFinished && !isStreamClosedByPeer }

    /// The delay the server asked for before a retry: `grpc-retry-pushback-ms` in the trailers
    /// (``GRPCMetadata/retryPushback``).
    public var retryPushback: Duration? { trailers?.retryPushback }

    /// Takes a header block (HEADERS and its CONTINUATION frames) of the response.
    ///
    /// - Parameters:
    ///   - fields: The decoded fields, in order.
    ///   - endStream: Whether the HEADERS frame carried END_STREAM.
    public mutating func receiveHeaders(_ fields: [(name: String, value: String)], endStream: Bool) -> [Event] {
        switch state {
        case .finished:
            isStreamClosedByPeer = isStreamClosedByPeer || endStream
            return []
        case .awaitingHead:
            return receiveHead(ResponseHeaderBlock(fields), endStream: endStream)
        case .receivingMessages:
            guard endStream else {
                return end(
                    malformed: "a second header block without END_STREAM arrived after the response headers "
                        + "and \(messagesSoFar); only trailers may follow them (RFC 9113 section 8.1)",
                    streamClosed: false)
            }
            return receiveTrailers(ResponseHeaderBlock(fields))
        }
    }

    /// Takes the header block that ended the stream of a response whose headers this reader never
    /// saw (a capture that began after them, or lost the frame that held them).
    ///
    /// A block with `:status` is a Trailers-Only response, read as ``receiveHeaders(_:endStream:)``
    /// reads one. A block without it is the trailers (gRPC PROTOCOL-HTTP2 "Responses": `:status`
    /// comes in the response headers, `grpc-status` in the trailers), and their `grpc-status` is
    /// the call's status; without one, the status is what any trailers without one give, its
    /// message saying that the headers are missing too. A live client does not call this: for it,
    /// a first block without `:status` is malformed.
    public mutating func receiveTrailersWithoutHead(_ fields: [(name: String, value: String)]) -> [Event] {
        guard case .awaitingHead = state else { return receiveHeaders(fields, endStream: true) }
        let block = ResponseHeaderBlock(fields)
        guard block.httpStatus == nil, block.httpStatusText == nil else {
            return receiveHead(block, endStream: true)
        }
        return receiveTrailers(block, headMissing: true)
    }

    /// Takes the payload of a DATA frame.
    ///
    /// - Parameters:
    ///   - bytes: The frame's payload; message boundaries need not line up with frames
    ///     (PROTOCOL-HTTP2, "Data Frames").
    ///   - endStream: Whether the frame carried END_STREAM.
    public mutating func receiveData(_ bytes: some Collection<UInt8>, endStream: Bool) -> [Event] {
        switch state {
        case .finished:
            isStreamClosedByPeer = isStreamClosedByPeer || endStream
            return []
        case .awaitingHead:
            return end(
                malformed: "a DATA frame of \(bytes.count) bytes arrived before the response headers",
                streamClosed: endStream)
        case .receivingMessages:
            deframer.append(bytes)
            var events: [Event] = []
            readMessages(into: &events, endStream: endStream)
            if endStream, !isFinished {
                // PROTOCOL-HTTP2 "Responses": the end of a response is the END_STREAM flag of the
                // HEADERS frame that carries the trailers, never of a DATA frame.
                var problem = "the server ended the stream with a DATA frame, without trailers, after \(messagesSoFar)"
                if let truncation = truncation() { problem += "; " + truncation.description }
                events += end(malformed: problem, streamClosed: true)
            }
            return events
        }
    }

    /// Takes an RST_STREAM frame: the stream is closed at once (PROTOCOL-HTTP2, "Errors").
    ///
    /// - Parameters:
    ///   - code: The frame's error code.
    ///   - sentByClient: Whether the client sent it (what a capture of a cancelled call shows); the
    ///     status's message names who reset the stream.
    public mutating func receiveReset(_ code: HTTP2ErrorCode, sentByClient: Bool = false) -> [Event] {
        // The stream is closed even when the call had already ended: RFC 9113 section 5.4.2 forbids
        // answering an RST_STREAM with another.
        guard !isFinished else {
            isStreamClosedByPeer = true
            return []
        }
        let status = CallStatus(rstStreamErrorCode: code, sentByClient: sentByClient)
        return end(status, trailers: GRPCMetadata(), streamClosed: true)
    }

    /// Takes the end of the connection under the stream (closed, lost, or a GOAWAY that left this
    /// stream out) before the stream ended: UNAVAILABLE, gRPC's status for a broken transport.
    ///
    /// - Parameters:
    ///   - requestSent: Whether the request was written to the connection; taken as true once
    ///     the response head has arrived.
    ///   - reason: What happened to the connection, for the message.
    public mutating func receiveEndOfConnection(requestSent: Bool, reason: String? = nil) -> [Event] {
        guard !isFinished else {
            isStreamClosedByPeer = true
            return []
        }
        var message = "the connection closed before the response ended"
        message += head == nil ? " (no response headers)" : " (after \(messagesSoFar))"
        if let reason { message += ": " + reason }
        let status = CallStatus(
            code: .unavailable, message: message, origin: .connection(requestSent: requestSent || head != nil))
        return end(status, trailers: GRPCMetadata(), streamClosed: true)
    }

    /// Ends the call on the caller's side with `status` (a deadline that passed, a cancellation);
    /// what arrives afterwards is ignored. The caller resets the stream (``shouldResetStream``).
    public mutating func cancel(with status: CallStatus) -> [Event] {
        guard !isFinished else { return [] }
        return end(status, trailers: GRPCMetadata(), streamClosed: false)
    }

    private mutating func receiveHead(_ block: ResponseHeaderBlock, endStream: Bool) -> [Event] {
        if let problem = block.malformation(asTrailers: false) {
            return end(malformed: "the response headers are malformed: " + problem, streamClosed: endStream)
        }
        guard let httpStatus = block.httpStatus else {
            let found = block.httpStatusText.map { "is \"\($0)\", not a 3-digit status" } ?? "is missing"
            return end(malformed: "the response's :status \(found)", streamClosed: endStream)
        }
        if (100..<200).contains(httpStatus) {
            // RFC 9113 section 8.1: interim (1xx) responses may come before the final one.
            guard endStream else { return [] }
            return end(
                malformed: "the informational :status \(httpStatus) ended the stream (RFC 9113 section 8.1)",
                streamClosed: true)
        }
        if endStream {
            // Trailers-Only (PROTOCOL-HTTP2, "Responses"). grpc-status, when present, is the
            // status; the HTTP mapping is only for responses without it.
            let status =
                if block.grpcStatus != nil || (httpStatus == 200 && block.isGRPC) {
                    CallStatus(
                        grpcStatus: block.grpcStatus, grpcMessage: block.grpcMessage,
                        grpcStatusDetailsBin: block.grpcStatusDetailsBin, httpStatus: httpStatus)
                } else {
                    block.nonGRPCStatus(httpStatus: httpStatus)
                }
            return end(status, trailers: block.metadata, streamClosed: true)
        }
        guard httpStatus == 200, block.isGRPC else {
            return end(block.nonGRPCStatus(httpStatus: httpStatus), trailers: block.metadata, streamClosed: false)
        }
        let head = GRPCResponseHead(
            httpStatus: httpStatus,
            contentType: block.contentType ?? GRPCRequestHead.defaultContentType,
            encoding: block.encoding ?? .identity,
            acceptedEncodings: block.acceptedEncodings,
            metadata: block.metadata)
        self.head = head
        deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize, encoding: head.encoding)
        state = .receivingMessages
        return [.responseHead(head)]
    }

    private mutating func receiveTrailers(_ block: ResponseHeaderBlock, headMissing: Bool = false) -> [Event] {
        if let problem = block.malformation(asTrailers: true) {
            return end(malformed: "the response trailers are malformed: " + problem, streamClosed: true)
        }
        var status: CallStatus
        if block.grpcStatus == nil {
            status = CallStatus(
                grpcStatus: nil, grpcMessage: block.grpcMessage, grpcStatusDetailsBin: block.grpcStatusDetailsBin)
            status.origin = .malformedResponse
            if headMissing {
                status.message =
                    "the response headers are missing, and the trailers that ended the stream have no grpc-status"
                    + (block.grpcMessage.map { " (grpc-message: \($0))" } ?? "")
            } else if block.grpcMessage == nil, status.rpcStatus?.message.isEmpty ?? true {
                status.message = "the response trailers (after \(messagesSoFar)) have no grpc-status"
            }
        } else {
            status = CallStatus(
                grpcStatus: block.grpcStatus, grpcMessage: block.grpcMessage,
                grpcStatusDetailsBin: block.grpcStatusDetailsBin)
        }
        if let truncation = truncation() {
            var message = "the response ended inside a message: \(truncation)"
            if !status.isOK { message += "; the trailers said \(status)" }
            status = CallStatus(code: .internalError, message: message, origin: .malformedResponse)
        }
        return end(status, trailers: block.metadata, streamClosed: true)
    }

    /// Returns every complete message the deframer holds, ending the call on the first fault
    /// (with the stream closed by the peer when the bytes came with END_STREAM).
    private mutating func readMessages(into events: inout [Event], endStream: Bool) {
        while true {
            do throws(WireError) {
                guard let payload = try deframer.nextPayload() else { return }
                messageCount += 1
                events.append(.message(payload))
            } catch {
                // gRPC's libraries fail a call whose message is over the limit with
                // RESOURCE_EXHAUSTED; every other framing fault is the server's: INTERNAL.
                let code: StatusCode = error.code == .messageTooLarge ? .resourceExhausted : .internalError
                let status = CallStatus(
                    code: code, message: "response message \(messageCount + 1): \(error)", origin: .malformedResponse)
                events += end(status, trailers: GRPCMetadata(), streamClosed: endStream)
                return
            }
        }
    }

    /// How many messages have arrived, in words.
    private var messagesSoFar: String {
        messageCount == 1 ? "1 message" : "\(messageCount) messages"
    }

    /// The fault of a stream that stopped inside a message, or nil when it stopped between two.
    private func truncation() -> WireError? {
        do throws(WireError) {
            try deframer.finish()
            return nil
        } catch {
            return error
        }
    }

    private mutating func end(malformed message: String, streamClosed: Bool) -> [Event] {
        let status = CallStatus(code: .internalError, message: message, origin: .malformedResponse)
        return end(status, trailers: GRPCMetadata(), streamClosed: streamClosed)
    }

    private mutating func end(_ status: CallStatus, trailers: GRPCMetadata, streamClosed: Bool) -> [Event] {
        state = .finished
        self.status = status
        self.trailers = trailers
        isStreamClosedByPeer = isStreamClosedByPeer || streamClosed
        deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize)
        return [.end(status, trailers: trailers)]
    }
}
