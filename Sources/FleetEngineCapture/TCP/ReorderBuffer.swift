/// The segments a ``TCPStreamReassembler`` holds back, sorted by stream offset, disjoint.
///
/// A capture decides the order segments arrive in, and a hostile one can make every segment land
/// at the front of the buffer, or in its middle, while the buffer is full. In one flat array each
/// such insertion (and each removal from the front as holes are given up) moves every segment
/// behind it, so a full buffer of 65,536 pieces cost tens of microseconds per captured packet. Here
/// the segments sit in runs of at most ``runCapacity``, kept in order: finding a place is two
/// binary searches, and an insertion or removal moves at most one run's segments, plus, when a
/// run splits or empties, the list of runs (a 64th to a 128th as long as the buffer).
struct ReorderBuffer: Sendable {
    /// A segment (or the part of one that was not already present) waiting for the bytes before it.
    struct Segment: Sendable {
        var streamOffset: Int64
        var bytes: ArraySlice<UInt8>
        var timestamp: CaptureTimestamp
        var byteOffset: Int64

        var end: Int64 { streamOffset + Int64(bytes.count) }
    }

    /// The most segments in one run; a run that grows past it is split in two.
    static let runCapacity = 128

    /// Non-empty runs, each sorted, every segment of a run before every segment of the next.
    private var runs: [[Segment]] = []
    /// The number of segments in all runs.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var first: Segment? { runs.first?.first }
    var last: Segment? { runs.last?.last }

    /// The first segment that ends after `offset`, if any.
    func firstSegment(endingAfter offset: Int64) -> Segment? {
        let run = Self.partition(runs.count) { offset < runs[$0][runs[$0].count - 1].end }
        guard run < runs.count else { return nil }
        return runs[run][Self.partition(runs[run].count) { offset < runs[run][$0].end }]
    }

    /// Inserts `segment`, which must not overlap a buffered one, in its place.
    mutating func insert(_ segment: Segment) {
        count += 1
        guard !runs.isEmpty else {
            runs.append([segment])
            return
        }
        // The run to extend: the first whose last segment starts after this one, else the last.
        let start = segment.streamOffset
        let run = min(
            runs.count - 1, Self.partition(runs.count) { start < runs[$0][runs[$0].count - 1].streamOffset })
        // Segments are disjoint, so the first one that ends after this one's start is after it.
        let index = Self.partition(runs[run].count) { start < runs[run][$0].end }
        runs[run].insert(segment, at: index)
        if runs[run].count > Self.runCapacity {
            let upper = Array(runs[run][(Self.runCapacity / 2)...])
            runs[run].removeSubrange((Self.runCapacity / 2)...)
            runs.insert(upper, at: run + 1)
        }
    }

    /// Removes and returns the first segment.
    mutating func removeFirst() -> Segment {
        let segment = runs[0].removeFirst()
        if runs[0].isEmpty { runs.removeFirst() }
        count -= 1
        return segment
    }

    /// Removes and returns the last segment.
    mutating func removeLast() -> Segment {
        let segment = runs[runs.count - 1].removeLast()
        if runs[runs.count - 1].isEmpty { runs.removeLast() }
        count -= 1
        return segment
    }

    /// Empties the buffer.
    mutating func removeAll() {
        runs = []
        count = 0
    }

    /// The first of `0..<count` for which `isPast` holds (binary search: it must hold for a
    /// suffix of the range, as for sorted offsets); `count` when it holds for none.
    private static func partition(_ count: Int, _ isPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isPast(middle) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }
}
