public import FleetEngineStatus

/// Reads the request side of one gRPC call from what arrives on its HTTP/2 stream, without
/// doing any I/O: for the capture decoder, and for tests that play a server.
///
/// gRPC PROTOCOL-HTTP2, "Requests": Request → Request-Headers *Length-Prefixed-Message EOS, where
/// EOS is END_STREAM on the last DATA frame (an empty one when no data remains) or on the headers
/// of a request without messages. Each `receive` method returns the ``Event``s its input
/// produced; the last is always ``Event/end``, ``Event/reset(_:)`` or ``Event/failed(_:)``, after
/// which the reader is finished and ignores what it is given.
public struct GRPCRequestReader: Sendable {
    /// The largest message accepted, in bytes, before and after decompression.
    public var maxMessageSize: Int { deframer.maxMessageSize }
    private var state = CallStreamState.awaitingHead
    private var deframer: GRPCMessageDeframer
    /// The request head, once it has arrived.
    public private(set) var head: GRPCRequestHead?
    /// How many messages have been returned.
    public private(set) var messageCount = 0
    /// The bytes its message buffer holds or has reserved (``GRPCMessageDeframer/bufferCapacity``);
    /// none once the request has ended.
    public var bufferCapacity: Int { deframer.bufferCapacity }

    /// A reader for one call's request.
    ///
    /// - Parameter maxMessageSize: The largest request message accepted, before and after
    ///   decompression; gRPC's default is 4 MiB.
    public init(maxMessageSize: Int = GRPCMessageDeframer.defaultMaxMessageSize) {
        self.deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize)
    }

    /// Whether the request has ended, one way or another.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Takes a header block (HEADERS and its CONTINUATION frames) of the request.
    ///
    /// - Parameters:
    ///   - fields: The decoded fields, in order.
    ///   - endStream: Whether the HEADERS frame carried END_STREAM.
    public mutating func receiveHeaders(_ fields: [(name: String, value: String)], endStream: Bool) -> [Event] {
        switch state {
        case .finished:
            return []
        case .receivingMessages:
            // gRPC requests end with END_STREAM on DATA; they carry no trailers.
            return fail(
                .unexpectedFrame,
                "a second header block arrived after the request headers and \(messagesSoFar); "
                    + "gRPC requests have no trailers")
        case .awaitingHead:
            let head: GRPCRequestHead
            do throws(WireError) {
                head = try GRPCRequestHead(headerFields: fields)
            } catch {
                return fail(error)
            }
            self.head = head
            deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize, encoding: head.encoding)
            state = .receivingMessages
            guard endStream else { return [.requestHead(head)] }
            finish()
            return [.requestHead(head), .end]
        }
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
            return []
        case .awaitingHead:
            return fail(.unexpectedFrame, "a DATA frame of \(bytes.count) bytes arrived before the request headers")
        case .receivingMessages:
            deframer.append(bytes)
            var events: [Event] = []
            reading: while true {
                do throws(WireError) {
                    guard let payload = try deframer.nextPayload() else { break reading }
                    messageCount += 1
                    events.append(.message(payload))
                } catch {
                    var located = error
                    located.message = "request message \(messageCount + 1): " + error.message
                    return events + fail(located)
                }
            }
            guard endStream else { return events }
            do throws(WireError) {
                try deframer.finish()
            } catch {
                var located = error
                located.message = "the request ended inside a message: " + error.message
                return events + fail(located)
            }
            finish()
            return events + [.end]
        }
    }

    /// Takes an RST_STREAM frame: the stream is closed at once (PROTOCOL-HTTP2, "Errors").
    public mutating func receiveReset(_ code: HTTP2ErrorCode) -> [Event] {
        guard !isFinished else { return [] }
        finish()
        return [.reset(code)]
    }

    /// Takes the end of the connection (or of the capture) before the request ended.
    public mutating func receiveEndOfConnection() -> [Event] {
        guard !isFinished else { return [] }
        var problem = "the connection closed before the request ended"
        problem += head == nil ? " (no request headers)" : " (after \(messagesSoFar))"
        if deframer.bufferedByteCount > 0 {
            problem += "; \(deframer.bufferedByteCount) bytes of an unfinished message were received"
        }
        return fail(.incompleteStream, problem)
    }

    /// How many messages have arrived, in words.
    private var messagesSoFar: String {
        messageCount == 1 ? "1 message" : "\(messageCount) messages"
    }

    private mutating func fail(_ code: WireError.Code, _ message: String) -> [Event] {
        fail(WireError(code: code, message: message))
    }

    private mutating func fail(_ error: WireError) -> [Event] {
        finish()
        return [.failed(error)]
    }

    /// Ends the request and lets go of the message buffer: it can hold most of a message that will
    /// never be completed, or the bytes of the messages already returned, and a finished reader is
    /// still counted (``bufferCapacity``) for as long as its call lasts.
    private mutating func finish() {
        state = .finished
        deframer = GRPCMessageDeframer(maxMessageSize: maxMessageSize)
    }
}

/// Where a reader of one side of a call is: both sides are a head, then messages, then an end.
enum CallStreamState: Sendable {
    case awaitingHead
    case receivingMessages
    case finished
}
