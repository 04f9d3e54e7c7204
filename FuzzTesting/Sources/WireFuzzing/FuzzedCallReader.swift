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

    /// An event as text to compare, where values that compare equal can still differ (a
    /// `WireError` equals any other of its code); a message stands as its size, since writing out
    /// megabytes of payload would slow the fuzzer to a crawl (the payloads compare as values).
    static func text(of event: Event) -> String

    /// How the state of two readers that read the same stream differs, or nil when it does not.
    static func difference(_ one: Self, _ other: Self) -> String?
}
