import FleetEngineStatus
import FleetEngineWire

extension GRPCResponseReader: FuzzedCallReader {
    /// Whether the response headers have arrived and the call has not ended.
    public var acceptsMessages: Bool { head != nil && !isFinished }

    /// Hands the reader one frame, the way the client and the capture decoder do.
    public mutating func receive(_ frame: WireFuzzFrame) -> [Event] {
        switch frame {
        case .headers(let fields, let endStream, let withoutHead):
            withoutHead ? receiveTrailersWithoutHead(fields) : receiveHeaders(fields, endStream: endStream)
        case .data(let bytes, let endStream):
            receiveData(bytes, endStream: endStream)
        case .reset(let code):
            receiveReset(code)
        case .endOfConnection(let requestSent):
            receiveEndOfConnection(requestSent: requestSent, reason: "the fuzzer closed it")
        case .cancel:
            cancel(with: CallStatus(code: .deadlineExceeded, message: "the fuzzer's deadline passed", origin: .local))
        }
    }

    /// Ends the call with the end of the connection, the request sent, if it has not ended.
    public mutating func receiveEnd() -> [Event] {
        receiveEndOfConnection(requestSent: true)
    }

    /// The event as text, a message as its size.
    public static func text(of event: Event) -> String {
        guard case .message(let payload) = event else { return "\(event)" }
        return "message of \(payload.count) bytes"
    }

    /// How the two readers' status, trailers, head and counts differ.
    public static func difference(_ one: Self, _ other: Self) -> String? {
        if one.status != other.status || one.status?.message != other.status?.message
            || one.status?.origin != other.status?.origin
        {
            return "status \(String(describing: other.status)), not \(String(describing: one.status))"
        }
        if one.trailers != other.trailers { return "trailers \(String(describing: other.trailers))" }
        if one.head != other.head { return "head \(String(describing: other.head))" }
        if one.messageCount != other.messageCount { return "\(other.messageCount) messages, not \(one.messageCount)" }
        if one.isStreamClosedByPeer != other.isStreamClosedByPeer { return "isStreamClosedByPeer differs" }
        return nil
    }
}
