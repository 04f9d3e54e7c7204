/// A reader of one side of a call, as the wire fuzzers drive it.
public protocol FuzzedCallReader {
    /// What the reader reports.
    associatedtype Event: Hashable

    /// A fresh reader with this message size limit.
    init(maxMessageSize: Int)

    /// Whether a DATA frame now goes to the deframer: the head has arrived, the side has not ended.
    var acceptsMessages: Bool { get }
    /// Whether the side has ended, one way or another.
    var isFinished: Bool { get }
    /// The bytes its message buffer holds or has reserved.
    var bufferCapacity: Int { get }

    /// Hands the reader one frame.
    mutating func receive(_ frame: WireFuzzFrame) -> [Event]

    /// Ends the side, if it has not ended, as the end of its connection does.
    mutating func receiveEnd() -> [Event]

    /// How the state of two readers that read the same stream differs, or nil when it does not.
    static func difference(_ one: Self, _ other: Self) -> String?
}
