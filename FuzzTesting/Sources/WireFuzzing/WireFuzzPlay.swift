import CaptureFuzzing

/// A script played into a fresh reader with its DATA frames cut one way, checking the reader's
/// memory as it goes: its message buffer never costs more than four times the DATA it was given
/// (``GRPCMessageDeframer``'s reservation rule), and nothing once it has finished.
public struct WireFuzzPlay<Reader: FuzzedCallReader> {
    /// Every event, in order.
    public private(set) var events: [Reader.Event] = []
    /// The reader after the last frame.
    public private(set) var reader: Reader
    /// The DATA bytes handed to the reader.
    private var fedByteCount = 0

    /// Plays `script` cut as `cut` says.
    public init(_ script: WireFuzzScript, cut: DataCut) {
        reader = Reader(maxMessageSize: script.maxMessageSize)
        let frames = script.frames
        var index = 0
        while index < frames.count {
            let frame = frames[index]
            index += 1
            guard case .data(let bytes, let endStream) = frame, reader.acceptsMessages else {
                deliver(frame)
                continue
            }
            switch cut {
            case .asScripted:
                deliver(frame)
            case .coalesced:
                var merged = bytes
                var ends = endStream
                while !ends, index < frames.count, case .data(let more, let moreEnds) = frames[index] {
                    merged += more
                    ends = moreEnds
                    index += 1
                }
                deliver(.data(merged, endStream: ends))
            case .byteByByte:
                guard !bytes.isEmpty else {
                    deliver(frame)
                    continue
                }
                for (offset, byte) in bytes.enumerated() {
                    deliver(.data([byte], endStream: endStream && offset == bytes.count - 1))
                }
            }
        }
    }

    private mutating func deliver(_ frame: WireFuzzFrame) {
        if case .data(let bytes, _) = frame { fedByteCount += bytes.count }
        events += reader.receive(frame)
        if reader.bufferCapacity > 4 * fedByteCount {
            fail("the reader's buffer costs \(reader.bufferCapacity) bytes after \(fedByteCount) bytes of DATA")
        }
        if reader.isFinished, reader.bufferCapacity != 0 {
            fail("the reader has finished but its buffer still costs \(reader.bufferCapacity) bytes")
        }
    }

    /// Reads libFuzzer's input as a script of `vocabulary`, plays it every way it can be cut
    /// (``everyCut(of:)``), and ends the side if the script did not.
    public static func run(
        _ data: UnsafePointer<UInt8>?,
        _ size: Int,
        vocabulary: WireFuzzVocabulary
    ) -> (script: WireFuzzScript, events: [Reader.Event], reader: Reader) {
        let script = WireFuzzScript(Array(UnsafeBufferPointer(start: data, count: size)), vocabulary: vocabulary)
        var play = everyCut(of: script)
        play.events += play.reader.receiveEnd()
        return (script, play.events, play.reader)
    }

    /// Plays `script` every way it can be cut, and fails unless every way gives the same events
    /// and leaves the reader in the same state; returns the play as scripted.
    public static func everyCut(of script: WireFuzzScript) -> Self {
        let scripted = Self(script, cut: .asScripted)
        for cut in DataCut.allCases where cut != .asScripted {
            guard cut != .byteByByte || script.dataByteCount <= 4096 else { continue }
            let other = Self(script, cut: cut)
            // Events compare as values and as text: a WireError equals any other of its code, and its
            // text is where the message and the byte offset would differ.
            if other.events != scripted.events
                || !other.events.map(Reader.text(of:)).elementsEqual(scripted.events.map(Reader.text(of:)))
            {
                fail(
                    "the events differ \(cut): \(other.events.map(Reader.text(of:)))\n"
                        + "as scripted: \(scripted.events.map(Reader.text(of:)))")
            }
            if let difference = Reader.difference(scripted.reader, other.reader) {
                fail("the reader's state differs \(cut): \(difference)")
            }
        }
        return scripted
    }
}
