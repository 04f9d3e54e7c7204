import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire

/// A response as the frames that carry it, played into a fresh ``GRPCResponseReader``; the test
/// states the frames once and compares every event.
struct ResponseScript {
    enum Frame {
        case headers([(name: String, value: String)], endStream: Bool)
        case data([UInt8], endStream: Bool)
        case reset(HTTP2ErrorCode)
        case endOfConnection(requestSent: Bool, reason: String?)
    }

    static let head: [(name: String, value: String)] = [(":status", "200"), ("content-type", "application/grpc")]
    static let okTrailers: [(name: String, value: String)] = [("grpc-status", "0")]

    var frames: [Frame]
    var maxMessageSize = GRPCMessageDeframer.defaultMaxMessageSize

    init(_ frames: [Frame], maxMessageSize: Int = GRPCMessageDeframer.defaultMaxMessageSize) {
        self.frames = frames
        self.maxMessageSize = maxMessageSize
    }

    /// The events of every frame, in order, and the reader afterwards.
    func play() -> (events: [GRPCResponseReader.Event], reader: GRPCResponseReader) {
        var reader = GRPCResponseReader(maxMessageSize: maxMessageSize)
        var events: [GRPCResponseReader.Event] = []
        for frame in frames {
            switch frame {
            case .headers(let fields, let endStream): events += reader.receiveHeaders(fields, endStream: endStream)
            case .data(let bytes, let endStream): events += reader.receiveData(bytes, endStream: endStream)
            case .reset(let code): events += reader.receiveReset(code)
            case .endOfConnection(let requestSent, let reason):
                events += reader.receiveEndOfConnection(requestSent: requestSent, reason: reason)
            }
        }
        return (events, reader)
    }
}
