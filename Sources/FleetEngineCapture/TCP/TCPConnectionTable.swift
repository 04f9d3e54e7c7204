/// Routes the TCP segments of a whole capture to their connections and reassembles the byte
/// stream of each direction with a ``TCPStreamReassembler``.
///
/// Feed it every segment in capture order with ``receive(_:)``, then call ``finish()``. A
/// connection is keyed by the unordered pair of its endpoints. It opens with its first segment
/// that carries a SYN or payload (bare ACKs, FINs and RSTs of a connection the table does not know
/// are ignored: they are the tail of a connection that already ended, or of one that ended before
/// the capture started) and ends, with a `.ended` event, when:
///
/// - both directions closed with a FIN, or either sent a RST (payload that comes after the RST, past
///   what the connection delivered, is reported with `.passedOverAfterReset`);
/// - a SYN (or a SYN-ACK whose SYN the capture missed) arrives with another initial sequence
///   number than its sender's direction started with (RFC 9293 section 3.4.1), or from a
///   direction that started mid-connection: the endpoint pair is being reused by a new
///   connection, which opens right after with a new id;
/// - ``maxConnections`` connections are open and another one opens: the least recently active
///   one is ended, its buffered bytes flushed first;
/// - ``finish()`` is called.
///
/// An ended connection is forgotten, so memory grows with the connections open at one time (at
/// most ``maxConnections``, each holding at most two reorder buffers), not with the capture. The
/// reorder buffers of all connections together hold at most ``maxBufferedBytes``: when a segment
/// takes them past it, its own direction gives up its oldest holes (each a gap) until they fit.
/// A segment's acknowledgment number is passed to the other direction
/// (``TCPStreamReassembler/acknowledged(_:at:)``): a hole its receiver acknowledged is one the
/// capture lost, reported at once.
public struct TCPConnectionTable: Sendable {
    /// An endpoint pair in a fixed order, so that both directions find the same connection.
    private struct Key: Hashable, Sendable {
        var lower: TCPEndpoint
        var upper: TCPEndpoint

        init(_ one: TCPEndpoint, _ other: TCPEndpoint) {
            if Key.precedes(one, other) {
                (lower, upper) = (one, other)
            } else {
                (lower, upper) = (other, one)
            }
        }

        private static func precedes(_ one: TCPEndpoint, _ other: TCPEndpoint) -> Bool {
            switch (one.address, other.address) {
            case (.v4(let left), .v4(let right)):
                return (left, one.port) < (right, other.port)
            case (.v6(let leftHigh, let leftLow), .v6(let rightHigh, let rightLow)):
                return (leftHigh, leftLow, one.port) < (rightHigh, rightLow, other.port)
            case (.v4, .v6):
                return true
            case (.v6, .v4):
                return false
            }
        }
    }

    /// An open connection: what was told about it, its two directions, and its place in the list
    /// from least to most recently active.
    private struct Entry: Sendable {
        var connection: TCPConnection
        var key: Key
        var fromFirstSource: TCPStreamReassembler
        var fromFirstDestination: TCPStreamReassembler
        var older: Int?
        var newer: Int?
    }

    /// A connection a RST ended: who reset it, and the sequence number of the next byte each
    /// endpoint had not yet delivered, so that bytes still in flight after the RST are reported.
    private struct ResetConnection: Sendable {
        var id: Int
        var resetBy: TCPEndpoint
        var nextSequenceNumbers: [TCPEndpoint: UInt32]
    }

    /// The most connections open at one time; opening one more ends the least recently active.
    public let maxConnections: Int
    /// The reorder buffer limit of each direction (``TCPStreamReassembler/maxBufferedBytes``).
    public let maxBufferedBytesPerDirection: Int
    /// The most out-of-order payload bytes all directions of all open connections hold together.
    public let maxBufferedBytes: Int
    /// The out-of-order payload bytes all open connections hold now.
    public private(set) var bufferedBytes = 0

    private var ids: [Key: Int] = [:]
    private var entries: [Int: Entry] = [:]
    private var mostRecentlyActive: Int?
    private var leastRecentlyActive: Int?
    private var lastID = 0
    private var latestTimestamp: CaptureTimestamp?
    /// Endpoint pairs whose connection closed (both FINs, or a RST), oldest first, so that a
    /// segment arriving after the close — a retransmission, a late duplicate — is not taken for a
    /// connection the capture joined midway. Only a SYN opens such a pair again (RFC 9293 section
    /// 3.4.1: a new incarnation starts with a SYN). Bounded like the open connections.
    private var closedKeys: Set<Key> = []
    /// The closed pairs whose connection a RST ended (a subset of `closedKeys`, forgotten with them).
    private var resetConnections: [Key: ResetConnection] = [:]
    private var closedOrder: [Key] = []
    private var closedOrderStart = 0

    /// A table that keeps at most `maxConnections` connections open, each direction buffering at
    /// most `maxBufferedBytesPerDirection` out-of-order bytes and all of them together at most
    /// `maxBufferedBytes` (256 MiB unless told otherwise: thirty-two directions with full buffers).
    public init(
        maxConnections: Int = 65_536, maxBufferedBytesPerDirection: Int = 8 << 20, maxBufferedBytes: Int = 256 << 20
    ) {
        self.maxConnections = max(1, maxConnections)
        self.maxBufferedBytesPerDirection = maxBufferedBytesPerDirection
        self.maxBufferedBytes = max(0, maxBufferedBytes)
    }

    /// How many connections are open now.
    public var openConnectionCount: Int { entries.count }

    /// Takes the next segment of the capture and returns what it opens, delivers and ends.
    public mutating func receive(_ segment: TCPSegment) -> [TCPConnectionEvent] {
        latestTimestamp = max(latestTimestamp ?? segment.timestamp, segment.timestamp)
        var events: [TCPConnectionEvent] = []
        let key = Key(segment.source, segment.destination)
        if let id = ids[key], startsNewConnection(segment, on: id) {
            end(id, at: segment.timestamp, into: &events)
        }
        if ids[key] == nil, !segment.flags.contains(.syn), !segment.payload.isEmpty, resetConnections[key] != nil {
            passOverAfterReset(segment, key: key, into: &events)
            return events
        }
        guard let id = ids[key] ?? open(segment, key: key, into: &events) else { return events }
        markActive(id)

        // What the segment acknowledges first: its sender had those bytes before it sent this one.
        if segment.flags.contains(.ack), !segment.flags.contains(.rst) {
            acknowledge(segment, on: id, into: &events)
        }
        let streamEvents: [TCPStreamEvent]
        if entries[id]?.connection.firstSource == segment.source {
            streamEvents =
                entries[id]?.fromFirstSource.receive(
                    segment, sharedBuffered: &bufferedBytes, sharedLimit: maxBufferedBytes) ?? []
        } else {
            streamEvents =
                entries[id]?.fromFirstDestination.receive(
                    segment, sharedBuffered: &bufferedBytes, sharedLimit: maxBufferedBytes) ?? []
        }
        append(streamEvents, connectionID: id, from: segment.source, into: &events)

        let bothClosed = entries[id].map { $0.fromFirstSource.isClosed && $0.fromFirstDestination.isClosed }
        if segment.flags.contains(.rst) || bothClosed == true {
            let reset = segment.flags.contains(.rst)
            end(id, at: segment.timestamp, resetBy: reset ? segment.source : nil, into: &events)
            rememberClosed(key)
        }
        return events
    }

    /// Reports the bytes of `segment`, which came on a connection a RST ended, past those the
    /// connection delivered from its sender; a retransmission of delivered bytes is passed over.
    private mutating func passOverAfterReset(
        _ segment: TCPSegment, key: Key, into events: inout [TCPConnectionEvent]
    ) {
        guard var reset = resetConnections[key] else { return }
        let end = segment.sequenceNumber &+ UInt32(truncatingIfNeeded: segment.payload.count)
        var length = segment.payload.count
        if let next = reset.nextSequenceNumbers[segment.source] {
            // RFC 9293 section 3.4: compared modulo 2^32, as the signed distance past the next byte.
            let beyond = Int(Int32(bitPattern: end &- next))
            guard beyond > 0 else { return }
            length = min(length, beyond)
        }
        reset.nextSequenceNumbers[segment.source] = end
        resetConnections[key] = reset
        events.append(
            .passedOverAfterReset(
                connectionID: reset.id, from: segment.source, resetBy: reset.resetBy, length: length,
                timestamp: segment.timestamp, byteOffset: segment.byteOffset + Int64(segment.payload.count - length)))
    }

    /// Hands `segment`'s acknowledgment number to the other direction of connection `id`.
    private mutating func acknowledge(_ segment: TCPSegment, on id: Int, into events: inout [TCPConnectionEvent]) {
        // Read without keeping a copy of the entry, which would make the change below copy its buffers.
        guard let fromFirstSource = entries[id].map({ $0.connection.firstSource == segment.source }) else { return }
        let other: WritableKeyPath<Entry, TCPStreamReassembler> =
            fromFirstSource ? \.fromFirstDestination : \.fromFirstSource
        let before = entries[id]?[keyPath: other].bufferedBytes ?? 0
        let streamEvents =
            entries[id]?[keyPath: other].acknowledged(segment.acknowledgmentNumber, at: segment.timestamp) ?? []
        bufferedBytes += (entries[id]?[keyPath: other].bufferedBytes ?? 0) - before
        append(streamEvents, connectionID: id, from: segment.destination, into: &events)
    }

    private mutating func rememberClosed(_ key: Key) {
        guard closedKeys.insert(key).inserted else { return }
        closedOrder.append(key)
        while closedKeys.count > maxConnections, closedOrderStart < closedOrder.count {
            closedKeys.remove(closedOrder[closedOrderStart])
            resetConnections[closedOrder[closedOrderStart]] = nil
            closedOrderStart += 1
        }
        if closedOrderStart > 1_024, closedOrderStart * 2 > closedOrder.count {
            closedOrder.removeSubrange(0..<closedOrderStart)
            closedOrderStart = 0
        }
    }

    /// Ends every open connection, in the order they opened, at the end of the capture: flushes
    /// what each direction still buffers (gaps stamped with the capture's latest timestamp) and
    /// reports `.ended`.
    public mutating func finish() -> [TCPConnectionEvent] {
        var events: [TCPConnectionEvent] = []
        for id in entries.keys.sorted() {
            end(id, at: latestTimestamp, into: &events)
        }
        return events
    }

    /// Whether `segment` is a SYN that reuses the endpoint pair of connection `id` for a new one.
    private func startsNewConnection(_ segment: TCPSegment, on id: Int) -> Bool {
        guard segment.flags.contains(.syn), let entry = entries[id] else {
            return false
        }
        let direction =
            entry.connection.firstSource == segment.source ? entry.fromFirstSource : entry.fromFirstDestination
        // A retransmitted SYN (or SYN-ACK) repeats the initial sequence number; a new connection
        // picks another (RFC 9293 section 3.4.1). A direction that started without one was
        // mid-connection, and a SYN never follows data in the same connection.
        return direction.hasStarted && direction.initialSequenceNumber != segment.sequenceNumber
    }

    /// Opens a connection for `segment` when it can start one, ending the least recently active
    /// connection first if the table is full.
    private mutating func open(_ segment: TCPSegment, key: Key, into events: inout [TCPConnectionEvent]) -> Int? {
        guard segment.flags.contains(.syn) || !segment.payload.isEmpty else { return nil }
        if closedKeys.contains(key) {
            guard segment.flags.contains(.syn) else { return nil }
            closedKeys.remove(key)
            resetConnections[key] = nil
        }
        if entries.count >= maxConnections, let evicted = leastRecentlyActive {
            end(evicted, at: segment.timestamp, into: &events)
        }
        let initiator: TCPEndpoint?
        if segment.flags.contains(.syn) {
            initiator = segment.flags.contains(.ack) ? segment.destination : segment.source
        } else {
            initiator = nil
        }
        lastID += 1
        let connection = TCPConnection(
            id: lastID, initiator: initiator, firstSource: segment.source, firstDestination: segment.destination)
        let reassembler = TCPStreamReassembler(maxBufferedBytes: maxBufferedBytesPerDirection)
        ids[key] = lastID
        entries[lastID] = Entry(
            connection: connection, key: key, fromFirstSource: reassembler, fromFirstDestination: reassembler)
        events.append(.opened(connection))
        return lastID
    }

    /// Flushes both directions of connection `id`, reports `.ended` and forgets it; when `resetBy`
    /// reset it, remembers where each direction's bytes had reached.
    private mutating func end(
        _ id: Int, at timestamp: CaptureTimestamp?, resetBy: TCPEndpoint? = nil,
        into events: inout [TCPConnectionEvent]
    ) {
        unlink(id)
        guard var entry = entries.removeValue(forKey: id) else { return }
        ids[entry.key] = nil
        bufferedBytes -= entry.fromFirstSource.bufferedBytes + entry.fromFirstDestination.bufferedBytes
        let connection = entry.connection
        append(
            entry.fromFirstSource.finish(at: timestamp), connectionID: id, from: connection.firstSource, into: &events)
        append(
            entry.fromFirstDestination.finish(at: timestamp), connectionID: id, from: connection.firstDestination,
            into: &events)
        events.append(.ended(connectionID: id))
        if let resetBy {
            var next: [TCPEndpoint: UInt32] = [:]
            next[connection.firstSource] = entry.fromFirstSource.nextSequenceNumber
            next[connection.firstDestination] = entry.fromFirstDestination.nextSequenceNumber
            resetConnections[entry.key] = ResetConnection(id: id, resetBy: resetBy, nextSequenceNumbers: next)
        }
    }

    private func append(
        _ streamEvents: [TCPStreamEvent], connectionID id: Int, from source: TCPEndpoint,
        into events: inout [TCPConnectionEvent]
    ) {
        for event in streamEvents {
            switch event {
            case .data(let bytes, let streamOffset, let timestamp, let byteOffset):
                events.append(
                    .data(
                        connectionID: id, from: source, bytes: bytes, streamOffset: streamOffset,
                        timestamp: timestamp, byteOffset: byteOffset))
            case .gap(let streamOffset, let length, let timestamp):
                events.append(
                    .gap(
                        connectionID: id, from: source, streamOffset: streamOffset, length: length, timestamp: timestamp
                    ))
            case .closed(let reset, let timestamp):
                events.append(.closed(connectionID: id, from: source, reset: reset, timestamp: timestamp))
            }
        }
    }

    /// Moves connection `id` to the most recently active end of the list.
    private mutating func markActive(_ id: Int) {
        guard mostRecentlyActive != id else { return }
        unlink(id)
        entries[id]?.older = mostRecentlyActive
        if let previous = mostRecentlyActive {
            entries[previous]?.newer = id
        } else {
            leastRecentlyActive = id
        }
        mostRecentlyActive = id
    }

    /// Takes connection `id` out of the list from least to most recently active.
    private mutating func unlink(_ id: Int) {
        guard let entry = entries[id] else { return }
        if let older = entry.older {
            entries[older]?.newer = entry.newer
        } else if leastRecentlyActive == id {
            leastRecentlyActive = entry.newer
        }
        if let newer = entry.newer {
            entries[newer]?.older = entry.older
        } else if mostRecentlyActive == id {
            mostRecentlyActive = entry.older
        }
        entries[id]?.older = nil
        entries[id]?.newer = nil
    }
}
