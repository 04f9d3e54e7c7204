import CLibFuzzer
import CaptureFuzzing
import FleetEngineCapture

/// The endpoints segments travel between: two IPv4 hosts, one of them with two ports, and an IPv6
/// host, so that connections share hosts, ports and address families.
let endpoints: [TCPEndpoint] = [
    TCPEndpoint(address: .v4(0x0A00_0001), port: 50_000),
    TCPEndpoint(address: .v4(0x0A00_0002), port: 443),
    TCPEndpoint(address: .v4(0x0A00_0002), port: 444),
    TCPEndpoint(address: .v6(0, 1), port: 443),
]

/// The eight (source, destination) pairs a segment description can pick: both directions of four
/// connections.
let directions: [(source: Int, destination: Int)] = [(0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0), (1, 2), (2, 1)]

/// Where each direction's sequence numbers start, some close to the 32-bit wrap.
let initialSequenceNumbers: [UInt32] = [0, 0xFFFF_FF00, 1_000, 0x7FFF_FFF0, 0xFFFF_FFFF, 42, 0x8000_0000, 7]

/// The payload byte at sequence number `sequence`: every copy of a byte the reassembler can see
/// carries the same value, so a delivered byte that is not the one its stream offset names was
/// put in the wrong place.
@inline(__always)
func payloadByte(at sequence: UInt32) -> UInt8 {
    UInt8(truncatingIfNeeded: sequence)
}

/// One libFuzzer run: the input describes a capture's TCP segments, which go through a
/// ``TCPConnectionTable``, then its `finish()`, while ``EventChecker`` checks the events.
///
/// Byte 0 sets the table's limits: bits 0-1 give at most 1 to 4 open connections (to exercise
/// eviction), bits 2-3 a reorder buffer of 0, 16, 300 bytes or 8 MiB per direction (to exercise
/// gaps). Then each segment is 4 bytes:
///
/// - byte 0: bits 0-2 pick one of the eight ``directions``; bits 3-7 are the TCP flags (FIN, SYN,
///   RST, PSH, ACK, as in the TCP header);
/// - bytes 1-2: a signed 16-bit distance from where the direction's previous segment ended (0 for
///   in-order data), times 65,536 when bit 7 of byte 3 is set (to reach the 2^31 wrap);
/// - byte 3: bits 0-6 are the payload length (0 to 127 bytes, made by ``payloadByte(at:)``).
///
/// A segment acknowledges everything the other direction has been described as sending so far
/// (what matters only with the ACK flag), so holes the other side acknowledged are given up early.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let limits = input.first else { return 0 }
    let bufferLimits = [0, 16, 300, 8 << 20]
    var table = TCPConnectionTable(
        maxConnections: 1 + Int(limits & 3), maxBufferedBytesPerDirection: bufferLimits[Int(limits >> 2) & 3])
    var checker = EventChecker()
    var nextSequence = initialSequenceNumbers
    var position = 1
    var segmentIndex: Int64 = 0
    while position + 4 <= input.count {
        let flagsAndDirection = input[position]
        let distance = Int16(bitPattern: UInt16(input[position + 1]) << 8 | UInt16(input[position + 2]))
        let lengthAndScale = input[position + 3]
        position += 4

        let direction = Int(flagsAndDirection & 7)
        let flags = TCPFlags(rawValue: flagsAndDirection >> 3)
        let scale: Int32 = lengthAndScale & 0x80 != 0 ? 65_536 : 1
        let sequence = nextSequence[direction] &+ UInt32(bitPattern: Int32(distance) &* scale)
        // Data in a SYN starts after it: the SYN takes the first sequence number (RFC 9293 3.4).
        let firstDataSequence = flags.contains(.syn) ? sequence &+ 1 : sequence
        let length = Int(lengthAndScale & 0x7F)
        let payload = (0..<length).map { payloadByte(at: firstDataSequence &+ UInt32($0)) }
        nextSequence[direction] = firstDataSequence &+ UInt32(length) &+ (flags.contains(.fin) ? 1 : 0)

        let (source, destination) = directions[direction]
        // The directions come in pairs, (a, b) then (b, a): the other direction is the pair's other half.
        let segment = TCPSegment(
            source: endpoints[source], destination: endpoints[destination], sequenceNumber: sequence,
            acknowledgmentNumber: nextSequence[direction ^ 1], flags: flags, payload: payload[...],
            timestamp: CaptureTimestamp(seconds: segmentIndex, nanoseconds: 0), byteOffset: segmentIndex * 1000)
        segmentIndex += 1
        checker.payloadBytesReceived += Int64(payload.count)
        checker.check(table.receive(segment))
        if table.openConnectionCount > table.maxConnections {
            fail("\(table.openConnectionCount) connections open, more than the limit of \(table.maxConnections)")
        }
    }
    checker.check(table.finish())
    if table.openConnectionCount != 0 {
        fail("\(table.openConnectionCount) connections still open after finish()")
    }
    checker.checkAllEnded()
    return 0
}

/// Checks the events of a ``TCPConnectionTable`` against what its documentation promises.
struct EventChecker {
    /// What is known of one direction of one connection.
    struct Direction {
        /// Where the next `.data` or `.gap` must start: the events tile the stream from offset 0.
        var nextOffset: Int64 = 0
        var closed = false
        /// The low 32 bits of the sequence number of stream offset 0, once a data byte showed it.
        var origin: UInt32?
    }

    struct Connection {
        var connection: TCPConnection
        var directions: [TCPEndpoint: Direction] = [:]
    }

    var open: [Int: Connection] = [:]
    var ended: Set<Int> = []
    var lastOpenedID = 0
    var payloadBytesReceived: Int64 = 0
    var bytesDelivered: Int64 = 0

    mutating func check(_ events: [TCPConnectionEvent]) {
        for event in events {
            check(event)
        }
        if bytesDelivered > payloadBytesReceived {
            fail("\(bytesDelivered) bytes delivered from \(payloadBytesReceived) bytes of payload received")
        }
    }

    mutating func check(_ event: TCPConnectionEvent) {
        switch event {
        case .opened(let connection):
            guard connection.id > lastOpenedID, !ended.contains(connection.id) else {
                fail("connection \(connection.id) opened after connection \(lastOpenedID)")
            }
            let pair = Set([connection.firstSource, connection.firstDestination])
            if open.values.contains(where: { Set([$0.connection.firstSource, $0.connection.firstDestination]) == pair })
            {
                fail("connection \(connection.id) opened while another on the same endpoints is open")
            }
            if let initiator = connection.initiator, !pair.contains(initiator) {
                fail("connection \(connection.id)'s initiator \(initiator) is neither of its endpoints")
            }
            lastOpenedID = connection.id
            open[connection.id] = Connection(connection: connection)

        case .data(let id, let from, let bytes, let streamOffset, _, _):
            var direction = self.direction(id, from, "data")
            guard streamOffset == direction.nextOffset else {
                fail("connection \(id) from \(from): data at \(streamOffset), expected at \(direction.nextOffset)")
            }
            for (index, byte) in bytes.enumerated() {
                let offset = UInt32(truncatingIfNeeded: streamOffset + Int64(index))
                let origin = direction.origin ?? (UInt32(byte) &- offset) & 0xFF
                direction.origin = origin
                if byte != payloadByte(at: origin &+ offset) {
                    fail(
                        "connection \(id) from \(from): the byte at stream offset \(streamOffset + Int64(index)) "
                            + "is \(byte), which belongs at another offset")
                }
            }
            direction.nextOffset += Int64(bytes.count)
            bytesDelivered += Int64(bytes.count)
            open[id]?.directions[from] = direction

        case .gap(let id, let from, let streamOffset, let length, _):
            var direction = self.direction(id, from, "a gap")
            guard streamOffset == direction.nextOffset, length >= 0 else {
                fail(
                    "connection \(id) from \(from): a gap of \(length) at \(streamOffset), expected at "
                        + "\(direction.nextOffset)")
            }
            direction.nextOffset += length
            open[id]?.directions[from] = direction

        case .closed(let id, let from, _, _):
            var direction = self.direction(id, from, "closed")
            direction.closed = true
            open[id]?.directions[from] = direction

        case .ended(let id):
            guard open.removeValue(forKey: id) != nil else {
                fail("connection \(id) ended but was not open")
            }
            ended.insert(id)

        case .passedOverAfterReset(let id, let from, _, let length, _, _):
            guard ended.contains(id), open[id] == nil, length > 0 else {
                fail("\(length) bytes from \(from) passed over after a reset of connection \(id), which did not end")
            }
        }
    }

    /// The direction an event is about, which must belong to an open connection and not be closed.
    func direction(_ id: Int, _ from: TCPEndpoint, _ what: String) -> Direction {
        guard let connection = open[id] else {
            fail("\(what) for connection \(id), which is not open")
        }
        guard from == connection.connection.firstSource || from == connection.connection.firstDestination else {
            fail("\(what) for connection \(id) from \(from), which is neither of its endpoints")
        }
        let direction = connection.directions[from] ?? Direction()
        if direction.closed {
            fail("\(what) for connection \(id) from \(from) after that direction closed")
        }
        return direction
    }

    func checkAllEnded() {
        if !open.isEmpty {
            fail("connections \(open.keys.sorted()) never ended")
        }
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzTCPReassembly_main")
public func fuzzTCPReassemblyMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzz($0, $1) }
}
