import FleetEngineWire

extension GRPCRequestReader: FuzzedCallReader {
    /// Whether the request headers have arrived and the request has not ended.
    public var acceptsMessages: Bool { head != nil && !isFinished }

    /// Hands the reader one frame; a request has no trailers-only form and no caller to cancel it,
    /// so those frames go to it as a header block and as nothing.
    public mutating func receive(_ frame: WireFuzzFrame) -> [Event] {
        switch frame {
        case .headers(let fields, let endStream, _): receiveHeaders(fields, endStream: endStream)
        case .data(let bytes, let endStream): receiveData(bytes, endStream: endStream)
        case .reset(let code): receiveReset(code)
        case .endOfConnection: receiveEndOfConnection()
        case .cancel: []
        }
    }

    /// Ends the request with the end of the connection, if it has not ended.
    public mutating func receiveEnd() -> [Event] {
        receiveEndOfConnection()
    }

    /// The event as text, a message as its size.
    public static func text(of event: Event) -> String {
        guard case .message(let payload) = event else { return "\(event)" }
        return "message of \(payload.count) bytes"
    }

    /// How the two readers' head and message count differ.
    public static func difference(_ one: Self, _ other: Self) -> String? {
        if one.head != other.head { return "head \(String(describing: other.head))" }
        if one.messageCount != other.messageCount { return "\(other.messageCount) messages, not \(one.messageCount)" }
        if one.isFinished != other.isFinished { return "isFinished differs" }
        return nil
    }
}
