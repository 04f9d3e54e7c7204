/// Turns a packet capture (pcap or pcapng) of gRPC traffic into records, as its bytes arrive.
///
/// The layers, each its own type: ``CaptureFileReader`` (records and blocks to packets),
/// ``PacketDecoder`` (link layer, IP and TCP headers to segments), ``TCPConnectionTable``
/// (segments to each direction's bytes, in order, with gaps reported), ``HTTP2FrameReader`` (bytes
/// to frames), then one connection decoder per TCP connection (HPACK, the Wire layer's gRPC
/// readers, the codec). Feed it any number of chunks, from a file, standard input or a capture
/// still being written, then call ``finish()``.
///
/// Memory grows with the connections and calls that are open, not with the capture: a capture of
/// many gigabytes streams through. What the open calls of all connections hold together is bounded
/// by ``CaptureOptions/maxOpenCallBytes``, and the frames still arriving on all of them by
/// ``CaptureOptions/maxPartialFrameBytes``.
public struct CaptureDecoder: Sendable {
    fileprivate struct Connection: Sendable {
        var tcp: TCPConnection
        var calls: HTTP2ConnectionDecoder?
        /// The client, once the first bytes arrived; its decoder may still correct which side it is
        /// (``HTTP2ConnectionDecoder/rolesAreKnown``).
        var client: TCPEndpoint? { calls?.connection.client }
        var readers: [TCPEndpoint: HTTP2FrameReader] = [:]
        /// How many of the client's first bytes matched the HTTP/2 client preface, when the capture
        /// holds the connection's start.
        var prefaceBytesMatched = 0
        /// Whether the connection turned out not to be HTTP/2; its bytes are passed over.
        var isPassedOver = false
        /// The endpoint that reset the connection (RST), if one did.
        var resetBy: TCPEndpoint?
        /// The endpoints that finished sending (FIN).
        var finishedSenders: Set<TCPEndpoint> = []
        /// Whether its first bytes were looked at to tell TLS from cleartext HTTP/2.
        var transportIsKnown = false
        /// The decryption of a TLS connection, whose records carry its HTTP/2.
        var tls: TLSConnectionDecoder?
        /// The endpoint that sent the ClientHello (or, without one, is taken for the client).
        var tlsClient: TCPEndpoint?

        /// Lets `reader`, which reads what `from` sent, take frames as long as the peer's SETTINGS
        /// allowed when it looks for a frame boundary (after a gap in the capture).
        func bound(_ reader: inout HTTP2FrameReader, from: TCPEndpoint) {
            calls?.bound(&reader, fromClient: from == client)
        }

        /// What its frame readers hold (their ``HTTP2FrameReader/bufferedByteCount``).
        var bufferedByReaders: Int { readers.values.reduce(0) { $0 + $1.bufferedByteCount } }
    }

    private let options: CaptureOptions
    private var file = CaptureFileReader()
    private var table = TCPConnectionTable()
    private var connections: [Int: Connection] = [:]
    /// What the open calls of all connections hold (the sum of their ``HTTP2ConnectionDecoder/heldBytes``).
    private var heldBytes = 0
    /// What the frame readers of all connections hold (the sum of their
    /// ``HTTP2FrameReader/bufferedByteCount``).
    private(set) var partialFrameBytes = 0
    private var reportedLinkTypes: Set<LinkType> = []
    /// Whether ``finish()`` is ending the connections: the capture, not the connection, ended.
    private var isFinishing = false
    private var lastTimestamp: CaptureTimestamp?
    /// The secrets of the capture's TLS connections: ``CaptureOptions/tlsKeyLog`` and those of the
    /// file's Decryption Secrets Blocks.
    private var keyLog: TLSKeyLog
    /// How many TLS connections were seen, and how many of them the key log held secrets for.
    private var tlsConnectionCount = 0
    private var tlsConnectionsWithKeys = 0

    /// What the frame readers hold, summed afresh: what ``partialFrameBytes`` keeps count of.
    var bufferedByFrameReaders: Int {
        connections.values.reduce(0) { $0 + $1.bufferedByReaders }
    }

    /// A decoder for one capture.
    public init(options: CaptureOptions = CaptureOptions()) {
        self.options = options
        self.keyLog = options.tlsKeyLog
    }

    /// The number of packets read so far.
    public private(set) var packetCount = 0

    /// Takes the next bytes of the capture and returns what they completed.
    ///
    /// A damaged record does not take the records before it with it: when these bytes completed
    /// records before the damage, they are returned, and the error is thrown by the next call to
    /// ``decode(_:)`` or ``finish()`` (the file cannot be read past it).
    ///
    /// - Throws: a ``CaptureError`` when the capture file itself is unreadable (not a capture, a
    ///   record that contradicts itself), with the byte offset of the damage; problems inside
    ///   packets, TCP streams and HTTP/2 come back as ``CaptureRecord/problem(_:)`` records
    ///   instead, and decoding goes on.
    public mutating func decode(_ bytes: some Collection<UInt8>) throws(CaptureError) -> [CaptureRecord] {
        file.append(bytes)
        var records: [CaptureRecord] = []
        while true {
            let next: CapturedPacket?
            do throws(CaptureError) {
                next = try file.nextPacket()
            } catch {
                // The reader keeps the error and throws it again on the next call.
                if records.isEmpty { throw error }
                return records
            }
            readTLSKeyLogs(into: &records)
            guard let packet = next else { break }
            packetCount += 1
            lastTimestamp = packet.timestamp
            let segment: TCPSegment?
            do throws(CaptureError) {
                segment = try PacketDecoder.tcpSegment(in: packet)
            } catch {
                if error.code == .unsupportedLinkType {
                    // Once per link type: every packet of such an interface would say the same.
                    guard reportedLinkTypes.insert(packet.linkType).inserted else { continue }
                }
                records.append(.problem(CaptureProblem(timestamp: packet.timestamp, error: error)))
                continue
            }
            guard let segment else { continue }
            for event in table.receive(segment) { handle(event, into: &records) }
            if partialFrameBytes > options.maxPartialFrameBytes {
                giveUpLargestPartialFrames(at: packet.timestamp, into: &records)
            }
        }
        return records
    }

    /// Ends the capture: what the file, TCP and HTTP/2 still hold is reported, and calls still
    /// open end with the status of a connection that went away.
    ///
    /// - Throws: `truncatedCapture` when the capture ends inside a record, or the error that
    ///   stopped ``decode(_:)`` at a damaged record. Either is thrown before anything is ended:
    ///   the calls still open are those the capture holds up to the damage, which the error
    ///   locates, and the records already returned are all that was read.
    public mutating func finish() throws(CaptureError) -> [CaptureRecord] {
        try file.finish()
        var records: [CaptureRecord] = []
        isFinishing = true
        for event in table.finish() { handle(event, into: &records) }
        for id in connections.keys.sorted() { end(id, into: &records) }
        if !keyLog.isEmpty, tlsConnectionsWithKeys == 0 {
            let seen =
                tlsConnectionCount == 0
                ? "the capture holds no TLS connection whose handshake it saw"
                : "none of the capture's \(tlsConnectionCount) TLS connections is among them"
            records.append(
                .problem(
                    CaptureProblem(
                        timestamp: lastTimestamp,
                        error: CaptureError(
                            code: .keyLogUnused,
                            message: "the key log holds secrets for \(keyLog.connectionCount) TLS connections, and "
                                + seen))))
        }
        return records
    }

    /// Adds the key logs of the Decryption Secrets Blocks read so far to the key log; one that does
    /// not read is reported, and decoding goes on without it.
    private mutating func readTLSKeyLogs(into records: inout [CaptureRecord]) {
        for (bytes, byteOffset) in file.takeTLSKeyLogs() {
            do throws(CaptureError) {
                keyLog.merge(
                    try TLSKeyLog(
                        parsing: bytes, source: "the key log of the Decryption Secrets Block at byte \(byteOffset)"))
            } catch {
                var located = error
                located.byteOffset = byteOffset + (error.byteOffset ?? 0)
                records.append(.problem(CaptureProblem(timestamp: lastTimestamp, error: located)))
            }
        }
    }

    // MARK: Connections

    private mutating func handle(_ event: TCPConnectionEvent, into records: inout [CaptureRecord]) {
        switch event {
        case .opened(let tcp):
            connections[tcp.id] = Connection(tcp: tcp)
        case .data(let id, let from, let bytes, _, let timestamp, let byteOffset):
            // Taken out of the table while it changes, so that its buffers are not shared, and
            // changing them does not copy them.
            guard var connection = connections.removeValue(forKey: id) else { return }
            defer { connections[id] = connection }
            guard !connection.isPassedOver else { return }
            if !connection.transportIsKnown {
                connection.transportIsKnown = true
                if TLSRecordReader.looksLikeRecord(bytes) {
                    connection.startTLS(firstBytes: bytes, from: from)
                    tlsConnectionCount += 1
                }
            }
            if connection.tls != nil {
                decrypt(
                    bytes, on: &connection, from: from, timestamp: timestamp, byteOffset: byteOffset, into: &records)
            } else {
                receiveHTTP2(
                    bytes, on: &connection, from: from, timestamp: timestamp, byteOffset: byteOffset, into: &records)
            }
        case .gap(let id, let from, let streamOffset, let length, let timestamp):
            guard var connection = connections.removeValue(forKey: id) else { return }
            defer { connections[id] = connection }
            guard !connection.isPassedOver else { return }
            if var tls = connection.tls {
                connection.tls = nil
                var events: [TLSConnectionDecoder.Event] = []
                tls.lostBytes(length, fromClient: from == connection.tlsClient, into: &events)
                connection.tls = tls
                report(events, on: &connection, timestamp: timestamp, byteOffset: nil, into: &records)
                return
            }
            connection.clientBytesWentMissing(from: from)
            // What the gap cost, reported after the gap itself.
            var consequences: [CaptureRecord] = []
            var lostSync = true
            if var reader = connection.readers.removeValue(forKey: from) {
                let bufferedBefore = reader.bufferedByteCount
                if let event = reader.skipMissingBytes(length) {
                    report(
                        event, on: &connection, from: from, because: .missingBytes, at: timestamp, into: &consequences)
                }
                partialFrameBytes += reader.bufferedByteCount - bufferedBefore
                lostSync = reader.isLookingForFrameBoundary
                connection.readers[from] = reader
            } else {
                var reader = HTTP2FrameReader(startsAtConnectionStart: false)
                connection.bound(&reader, from: from)
                connection.readers[from] = reader
            }
            // Bytes of unknown frames are gone: they may have held header blocks that added entries
            // to the sender's HPACK table, so later blocks that name older entries are uncertain.
            if lostSync {
                let fromClient = from == connection.client
                connection.calls?.lostUnknownFrames(fromClient: fromClient, timestamp: timestamp)
            }
            records.append(
                connection.problem(.truncatedCapture, at: timestamp) { label in
                    "\(length) bytes sent by \(from) on \(label) are missing from the capture at stream offset "
                        + "\(streamOffset); decoding goes on from the next frame"
                        + (lostSync ? " found" + HTTP2ConnectionDecoder.uncertainTableNote : "")
                })
            records += consequences
        case .closed(let id, let from, let reset, _):
            if reset {
                connections[id]?.resetBy = from
            } else {
                connections[id]?.finishedSenders.insert(from)
            }
        case .ended(let id):
            end(id, into: &records)
        case .passedOverAfterReset(_, let from, let resetBy, let length, let timestamp, let byteOffset):
            records.append(
                .problem(
                    CaptureProblem(
                        timestamp: timestamp,
                        error: CaptureError(
                            code: .truncatedCapture,
                            message: "\(length) bytes that \(from) sent after \(resetBy) reset the TCP connection "
                                + "are passed over: they were in flight when the reset was sent (RFC 9293 section "
                                + "3.10.7.4), and the connection's calls ended with the reset",
                            byteOffset: byteOffset))))
        }
    }

    /// Reads the bytes `from` sent on a connection that carries HTTP/2 in the clear, or the
    /// plaintext of its TLS records: its frames, then its calls.
    private mutating func receiveHTTP2(
        _ bytes: ArraySlice<UInt8>, on connection: inout Connection, from: TCPEndpoint, timestamp: CaptureTimestamp,
        byteOffset: Int64, into records: inout [CaptureRecord]
    ) {
        connection.prepare(firstBytes: bytes, from: from, options: options)
        if !connection.checkPreface(bytes, from: from) {
            let inTLS = connection.tls != nil
            passOver(&connection, code: .notHTTP2, at: timestamp, byteOffset: byteOffset, into: &records) { label in
                inTLS
                    ? "the client's first bytes inside TLS on \(label) are not the HTTP/2 connection preface: the "
                        + "connection does not carry HTTP/2, and its bytes are passed over"
                    : "the client's first bytes on \(label) are not the HTTP/2 connection preface: it is not "
                        + "cleartext HTTP/2 (TLS, or another protocol), and its bytes are passed over"
            }
            return
        }
        // The connection's calls may hold what the others leave of the capture's bound.
        let heldBefore = connection.calls?.heldBytes ?? 0
        connection.calls?.heldBytesLimit = max(0, options.maxOpenCallBytes - (heldBytes - heldBefore))
        var reader =
            connection.readers.removeValue(forKey: from)
            ?? HTTP2FrameReader(startsAtConnectionStart: connection.tcp.initiator != nil || connection.tls != nil)
        let bufferedBefore = reader.bufferedByteCount
        connection.bound(&reader, from: from)
        reader.append(bytes, byteOffset: byteOffset, timestamp: timestamp)
        let fromClient = from == connection.client
        connection.calls?.read(
            &reader, fromClient: fromClient, timestamp: timestamp, namingConnection: true,
            into: &records)
        heldBytes += (connection.calls?.heldBytes ?? 0) - heldBefore
        partialFrameBytes += reader.bufferedByteCount - bufferedBefore
        connection.readers[from] = reader
    }

    /// Decrypts the bytes `from` sent on a TLS connection and reads the plaintext as HTTP/2.
    private mutating func decrypt(
        _ bytes: ArraySlice<UInt8>, on connection: inout Connection, from: TCPEndpoint, timestamp: CaptureTimestamp,
        byteOffset: Int64, into records: inout [CaptureRecord]
    ) {
        guard var tls = connection.tls else { return }
        connection.tls = nil
        let hadKeys = tls.foundKeys
        var events: [TLSConnectionDecoder.Event] = []
        tls.receive(bytes, fromClient: from == connection.tlsClient, keyLog: keyLog, into: &events)
        if tls.foundKeys, !hadKeys { tlsConnectionsWithKeys += 1 }
        connection.tls = tls
        report(events, on: &connection, timestamp: timestamp, byteOffset: byteOffset, into: &records)
    }

    /// Acts on what a TLS connection's records amounted to.
    private mutating func report(
        _ events: [TLSConnectionDecoder.Event], on connection: inout Connection, timestamp: CaptureTimestamp,
        byteOffset: Int64?, into records: inout [CaptureRecord]
    ) {
        for event in events {
            guard !connection.isPassedOver else { return }
            switch event {
            case .plaintext(let plaintext, let fromClient):
                let sender = connection.endpoint(isClient: fromClient)
                receiveHTTP2(
                    plaintext[...], on: &connection, from: sender, timestamp: timestamp, byteOffset: byteOffset ?? 0,
                    into: &records)
            case .problem(let code, let message):
                records.append(
                    connection.problem(code, at: timestamp, byteOffset: byteOffset) { "TLS on \($0): \(message)" })
            case .passOver(let code, let message):
                passOver(&connection, code: code, at: timestamp, byteOffset: byteOffset, into: &records) {
                    "TLS on \($0): \(message)"
                }
            }
        }
    }

    /// Stops decoding a connection that is not HTTP/2, or cannot be decrypted: one problem says
    /// so, and what its readers and calls hold (bytes the server sent before the client spoke) is
    /// let go with it.
    private mutating func passOver(
        _ connection: inout Connection, code: CaptureError.Code, at timestamp: CaptureTimestamp, byteOffset: Int64?,
        into records: inout [CaptureRecord], message: (_ label: String) -> String
    ) {
        connection.isPassedOver = true
        heldBytes -= connection.calls?.heldBytes ?? 0
        partialFrameBytes -= connection.bufferedByReaders
        connection.readers = [:]
        records.append(connection.problem(code, at: timestamp, byteOffset: byteOffset, message: message))
        connection.calls = nil
        connection.tls = nil
    }

    private mutating func end(_ id: Int, into records: inout [CaptureRecord]) {
        guard var connection = connections.removeValue(forKey: id), !connection.isPassedOver else { return }
        if var tls = connection.tls, let timestamp = lastTimestamp {
            var events: [TLSConnectionDecoder.Event] = []
            tls.finish(into: &events)
            report(events, on: &connection, timestamp: timestamp, byteOffset: nil, into: &records)
        }
        partialFrameBytes -= connection.bufferedByReaders
        for endpoint in connection.readers.keys.sorted(by: { $0.description < $1.description }) {
            guard var reader = connection.readers[endpoint] else { continue }
            if let leftover = reader.finish() {
                report(
                    leftover, on: &connection, from: endpoint, because: .inputEnded, at: lastTimestamp, into: &records)
            }
        }
        heldBytes -= connection.calls?.heldBytes ?? 0
        let reason = endReason(of: connection)
        connection.calls?.finish(timestamp: lastTimestamp, reason: reason, into: &records)
    }

    /// Why `connection` ended, for the calls it leaves open.
    private func endReason(of connection: Connection) -> String {
        if isFinishing { return "the capture ended before the call did" }
        if let resetBy = connection.resetBy {
            return "\(resetBy == connection.client ? "the client" : "the server") (\(resetBy)) reset the TCP connection"
        }
        if connection.finishedSenders.count == 2 {
            return "the TCP connection was closed (both sides sent FIN) before the call ended"
        }
        return "the capture decoder stopped following the TCP connection (a new connection reused its endpoints, "
            + "or it was the least recently active of more open connections than it follows)"
    }

    /// Makes the frame readers holding the most give up the frames they hold part of, until all of
    /// them together hold no more than ``CaptureOptions/maxPartialFrameBytes``. Each frame given up
    /// is reported, with the call it belonged to.
    private mutating func giveUpLargestPartialFrames(
        at timestamp: CaptureTimestamp, into records: inout [CaptureRecord]
    ) {
        while partialFrameBytes > options.maxPartialFrameBytes {
            // Ties go to the oldest connection, then its client: dictionaries have no fixed order,
            // and the same capture must give up the same frames on every run.
            var largest: (id: Int, endpoint: TCPEndpoint, bytes: Int)?
            var largestRank = (bytes: 0, newness: Int.min, client: 0)
            for (id, connection) in connections {
                for (endpoint, reader) in connection.readers {
                    let rank = (
                        bytes: reader.bufferedByteCount, newness: -id, client: endpoint == connection.client ? 1 : 0
                    )
                    if rank.bytes > 0, rank > largestRank {
                        largestRank = rank
                        largest = (id, endpoint, rank.bytes)
                    }
                }
            }
            guard let largest, var connection = connections.removeValue(forKey: largest.id),
                var reader = connection.readers.removeValue(forKey: largest.endpoint)
            else { return }
            let wasInSync = !reader.isLookingForFrameBoundary
            if let event = reader.giveUpPartialFrame() {
                report(
                    event, on: &connection, from: largest.endpoint,
                    because: .memoryBound(limit: options.maxPartialFrameBytes), at: timestamp, into: &records)
            }
            if wasInSync, reader.isLookingForFrameBoundary {
                // What it held was not a frame it could name: the frames it will pass over are unknown.
                let fromClient = largest.endpoint == connection.client
                connection.calls?.lostUnknownFrames(fromClient: fromClient, timestamp: timestamp)
            }
            let freed = largest.bytes - reader.bufferedByteCount
            partialFrameBytes -= freed
            connection.readers[largest.endpoint] = reader
            connections[largest.id] = connection
            // The largest held nothing that could be given up: there is nothing more to free.
            if freed <= 0 { return }
        }
    }

    /// Reports what the reader of `from`'s bytes gave up (a skipped run, or a lost frame and what it
    /// belonged to), keeping the count of what the open calls hold.
    private mutating func report(
        _ event: HTTP2FrameReader.Event, on connection: inout Connection, from: TCPEndpoint,
        because loss: HTTP2ConnectionDecoder.FrameLoss, at timestamp: CaptureTimestamp?,
        into records: inout [CaptureRecord]
    ) {
        let heldBefore = connection.calls?.heldBytes ?? 0
        switch event {
        case .skipped(let streamOffset, let length, let byteOffset):
            records.append(
                HTTP2ConnectionDecoder.skippedRun(
                    streamOffset: streamOffset, length: length, byteOffset: byteOffset,
                    connection: connection.calls?.connection, timestamp: timestamp))
        case .lostFrame(let frame):
            let fromClient = from == connection.client
            connection.calls?.lost(
                frame, fromClient: fromClient, because: loss, timestamp: timestamp, into: &records)
        case .frame, .preface:
            break
        }
        heldBytes += (connection.calls?.heldBytes ?? 0) - heldBefore
    }
}

extension CaptureDecoder.Connection {
    /// A problem on this connection; `message` is given the connection's label.
    fileprivate func problem(
        _ code: CaptureError.Code, at timestamp: CaptureTimestamp, byteOffset: Int64? = nil,
        message: (_ label: String) -> String
    ) -> CaptureRecord {
        // A TLS connection is named before its HTTP/2 is read, by its TLS client.
        let named =
            calls?.connection
            ?? tlsClient.map { _ in
                CapturedConnection(id: tcp.id, client: endpoint(isClient: true), server: endpoint(isClient: false))
            }
        let label = named.map { "\($0)" } ?? tcp.description
        return .problem(
            CaptureProblem(
                timestamp: timestamp, connection: named,
                error: CaptureError(code: code, message: message(label), byteOffset: byteOffset)))
    }

    /// Starts decrypting a connection whose first bytes are a TLS record. Its client is the side
    /// that sent a ClientHello; without one (a capture that began mid-connection), the side that
    /// opened the connection or has the higher port, as for HTTP/2.
    fileprivate mutating func startTLS(firstBytes: ArraySlice<UInt8>, from: TCPEndpoint) {
        let other = peer(of: from)
        let start = firstBytes.startIndex
        let isClientHello = firstBytes[start] == 22 && firstBytes.count > 5 && firstBytes[start + 5] == 1
        if isClientHello {
            tlsClient = from
        } else if let initiator = tcp.initiator {
            tlsClient = initiator
        } else {
            tlsClient = from.port > other.port ? from : other
        }
        tls = TLSConnectionDecoder()
    }

    /// The TLS client's endpoint (`isClient`), or the server's.
    fileprivate func endpoint(isClient: Bool) -> TCPEndpoint {
        let client = tlsClient ?? tcp.firstSource
        return isClient ? client : peer(of: client)
    }

    /// The connection's other endpoint.
    fileprivate func peer(of endpoint: TCPEndpoint) -> TCPEndpoint {
        endpoint == tcp.firstSource ? tcp.firstDestination : tcp.firstSource
    }

    /// Bytes `from` sent are missing: if they are the client's and the preface was not yet seen
    /// whole, its first bytes can no longer be checked, and the connection is taken as it comes.
    fileprivate mutating func clientBytesWentMissing(from: TCPEndpoint) {
        if from == (client ?? tcp.initiator) { prefaceBytesMatched = HTTP2FrameReader.clientPreface.count }
    }

    /// Whether the connection may still be HTTP/2, given the next bytes `from` sent: false once the
    /// client's first bytes on a connection whose start the capture holds differ from the client
    /// preface (RFC 9113 section 3.4: a client that knows the server speaks HTTP/2 sends it first).
    fileprivate mutating func checkPreface(_ bytes: ArraySlice<UInt8>, from: TCPEndpoint) -> Bool {
        let preface = HTTP2FrameReader.clientPreface
        guard tcp.initiator != nil, from == client, prefaceBytesMatched < preface.count else { return true }
        let expected = preface[prefaceBytesMatched...]
        let compared = min(bytes.count, expected.count)
        guard bytes.prefix(compared).elementsEqual(expected.prefix(compared)) else { return false }
        prefaceBytesMatched += compared
        return true
    }

    /// Decides which endpoint is the client when the first bytes arrive: the endpoint that opened
    /// the connection (its SYN), else the one whose bytes begin with the HTTP/2 client preface.
    /// Without either (a capture that began mid-connection) the one with the higher port is taken
    /// for now (servers listen on low, well-known ports; clients mostly get higher, ephemeral ones),
    /// and the first header block that only one side sends corrects it.
    fileprivate mutating func prepare(firstBytes: ArraySlice<UInt8>, from: TCPEndpoint, options: CaptureOptions) {
        guard calls == nil else { return }
        let other = peer(of: from)
        let client: TCPEndpoint
        var rolesAreKnown = true
        if let initiator = tcp.initiator {
            client = initiator
        } else if !firstBytes.isEmpty,
            firstBytes.starts(with: HTTP2FrameReader.clientPreface.prefix(firstBytes.count))
        {
            client = from
        } else {
            client = from.port > other.port ? from : other
            rolesAreKnown = false
        }
        calls = HTTP2ConnectionDecoder(
            connection: CapturedConnection(id: tcp.id, client: client, server: client == from ? other : from),
            options: options)
        calls?.rolesAreKnown = rolesAreKnown
    }
}
