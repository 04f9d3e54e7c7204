import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire

/// Decodes the gRPC calls of one HTTP/2 connection from the frames its two endpoints sent.
///
/// Header blocks are put together from HEADERS and CONTINUATION frames and decoded with HPACK
/// per sender; each stream's frames go to the Wire layer's ``GRPCRequestReader`` and
/// ``GRPCResponseReader``, the same readers the live client uses; messages are decoded with the
/// method's types (chosen by `:path`), and each call's end becomes a ``CapturedCallEnd`` with its
/// status. When a header block cannot be decoded (the capture began after the HPACK dynamic table
/// was filled, or bytes went missing), the stream's DATA is still read: its messages are
/// deframed directly, and the method is taken from ``CaptureOptions/methodOverride`` or inferred from
/// the message (``TripServiceSchema``), and marked as inferred.
///
/// Memory grows with the calls that are open, not with the connection's history, and the open
/// calls hold at most ``heldBytesLimit`` (their header fields, the buffers of their unfinished
/// messages, and ``callOverhead`` each): past it, the oldest are given up.
struct HTTP2ConnectionDecoder {
    /// One sender: the client or the server.
    struct Sender {
        var headerBlocks = HeaderBlockDecoder()
        var pendingBlock: PendingBlock?
        /// Bytes of unknown frames went missing, and no frame was read since: a CONTINUATION frame
        /// now may continue a header block that began among them.
        var resumedAfterGap = false
        /// The peer's `SETTINGS_HEADER_TABLE_SIZE` as this sender last acknowledged it.
        var acknowledgedTableSize = HeaderBlockDecoder.defaultTableSize
        /// The `SETTINGS_HEADER_TABLE_SIZE` values of the peer's SETTINGS frames that this sender has
        /// not acknowledged yet, oldest first (nil for a frame without one).
        var unacknowledgedTableSizes: [Int?] = []

        /// Bounds the sender's size updates by the largest limit it may be encoding under: a
        /// setting takes effect for its receiver once acknowledged (RFC 9113 section 6.5.3), so
        /// blocks sent before may use the older limit, and an encoder may already use a higher one
        /// it received.
        mutating func applyTableSizeLimit() {
            let pending = unacknowledgedTableSizes.lazy.compactMap { $0 }.max() ?? 0
            headerBlocks.setMaxTableSize(max(acknowledgedTableSize, pending))
        }

        /// Takes the peer's oldest unacknowledged SETTINGS as acknowledged.
        mutating func acknowledgeOldestSettings() {
            guard !unacknowledgedTableSizes.isEmpty else { return }
            if let size = unacknowledgedTableSizes.removeFirst() { acknowledgedTableSize = size }
            applyTableSizeLimit()
        }
    }

    /// A header block whose CONTINUATION frames are still to come.
    struct PendingBlock {
        var streamID: UInt32
        var fragments: [UInt8]
        var endStream: Bool
        var byteOffset: Int64
        /// The block grew past ``HTTP2ConnectionDecoder/maxHeaderBlockSize``: it was reported, and
        /// its remaining fragments are passed over until its last one.
        var isDiscarded = false
        /// Bytes the capture lost came after the block's last frame that was read: its last
        /// CONTINUATION may have been among them, so a frame of another kind that follows breaks
        /// no rule, and the block not ending is no news (the gap was reported).
        var mayHaveEndedInGap = false
        /// The block is a PUSH_PROMISE's (RFC 9113 section 6.6): the request the server promises,
        /// decoded only to keep the server's HPACK table in step, then dropped.
        var isPushPromise = false
    }

    /// The most bytes of HPACK one header block may take. The decoded fields may add up to
    /// ``HPACKBlockReader/defaultMaxHeaderListSize`` (1 MiB), and Huffman coding can spend up to
    /// 30 bits on one byte (RFC 7541 appendix B), so no block within that limit is longer than
    /// 3.75 MiB. A longer one is reported and its bytes are not kept: a capture of HEADERS
    /// followed by CONTINUATION frames without end would otherwise hold all of them.
    static let maxHeaderBlockSize = 4 << 20

    /// The most SETTINGS frames of one endpoint kept waiting for the peer's acknowledgment; past it
    /// (acknowledgments the capture lost), the oldest is taken as acknowledged.
    static let maxUnacknowledgedSettings = 16

    /// What one open call is counted as holding besides its header fields: its readers and
    /// bookkeeping, roughly.
    static let callOverhead = 1_024

    /// What is known of one call.
    struct Call {
        var request: GRPCRequestReader
        var response: GRPCResponseReader
        /// Messages of a side whose header block was lost, read without it.
        var rawRequest: GRPCMessageDeframer?
        var rawResponse: GRPCMessageDeframer?
        var method: String?
        var methodInferred = false
        /// Whether a header block of the call was read with table entries from before lost bytes.
        var headersUncertain = false
        var requestType: (any ProtobufMessage.Type)?
        var responseType: (any ProtobufMessage.Type)?
        var started: CaptureTimestamp?
        var requestMessages = 0
        var responseMessages = 0
        /// The size of the header fields decoded for the call (RFC 7541 section 4.1), which its
        /// heads keep part of.
        var headerBytes = 0
        /// What its message buffers held or had reserved after its last frame.
        var messageBytes = 0

        /// What its message buffers hold or have reserved now: the bytes of messages still arriving.
        var bufferedMessageBytes: Int {
            request.bufferCapacity + response.bufferCapacity + (rawRequest?.bufferCapacity ?? 0)
                + (rawResponse?.bufferCapacity ?? 0)
        }

        /// A call whose readers refuse messages longer than `maxMessageSize`
        /// (``CaptureOptions/maxMessageSize``).
        init(maxMessageSize: Int) {
            request = GRPCRequestReader(maxMessageSize: maxMessageSize)
            response = GRPCResponseReader(maxMessageSize: maxMessageSize)
        }

        mutating func setMethod(_ path: String, inferred: Bool) {
            method = path
            methodInferred = inferred
            let types = TripServiceSchema.messageTypes(forPath: path)
            requestType = types?.request
            responseType = types?.response
        }
    }

    private(set) var connection: CapturedConnection
    let options: CaptureOptions
    var client = Sender()
    var server = Sender()
    var calls: [UInt32: Call] = [:]
    /// Streams whose calls ended, so that a late frame (a WINDOW_UPDATE, a client's RST_STREAM
    /// after the trailers) does not start a call again; the oldest are forgotten, to bound memory.
    var endedStreams: Set<UInt32> = []
    var highestStreamID: UInt32 = 0
    /// The header bytes of the open calls (the sum of their ``Call/headerBytes``).
    var heldHeaderBytes = 0
    /// The message buffers of the open calls (the sum of their ``Call/messageBytes``).
    var heldMessageBytes = 0
    /// The streams of calls in the order they opened, from ``openingOrderStart``; streams whose
    /// calls ended are passed over when met, and cleared out when they are most of the entries.
    private var openingOrder: [UInt32] = []
    private var openingOrderStart = 0
    /// The most ``heldBytes`` the open calls may hold; past it, the oldest are given up.
    var heldBytesLimit: Int
    /// The largest frame each endpoint said it takes (SETTINGS_MAX_FRAME_SIZE, RFC 9113 section
    /// 6.5.2): the longest frame the other may send it. 16,384 until it says.
    private var maxFrameSizeTakenByClient = 16_384
    private var maxFrameSizeTakenByServer = 16_384
    /// Whether each endpoint's SETTINGS were seen, so that the largest frame it takes is known.
    private var settingsSeenFromClient = false
    private var settingsSeenFromServer = false
    /// Whether which endpoint is the client is known (its SYN or the client preface showed it, or a
    /// header block did). Until it is, the first header block that only the other side sends
    /// (`:method` or `:path` from the server, `:status` from the client; RFC 9113 section 8.3)
    /// swaps the two, and the frames that follow are read with the sides corrected.
    var rolesAreKnown = true
    /// How many times the sides were swapped, so that a caller reading one side's frames in a loop
    /// sees that they are now the other side's.
    private(set) var roleSwaps = 0

    init(connection: CapturedConnection, options: CaptureOptions) {
        self.connection = connection
        self.options = options
        self.heldBytesLimit = options.maxOpenCallBytes
    }

    /// The number of calls in progress.
    var openCallCount: Int { calls.count }

    /// What the open calls are counted as holding: their header fields, their message buffers, and
    /// ``callOverhead`` each.
    var heldBytes: Int { calls.count * Self.callOverhead + heldHeaderBytes + heldMessageBytes }

    /// The longest frame the client (`fromClient`) or the server may send, as its peer's SETTINGS
    /// said: what a frame reader looking for a boundary in that sender's bytes should accept.
    func maxFrameLength(fromClient: Bool) -> Int {
        fromClient ? maxFrameSizeTakenByServer : maxFrameSizeTakenByClient
    }

    /// ``maxFrameLength(fromClient:)`` when the receiver's SETTINGS were seen; nil when they were
    /// not (the capture began after them), and it may take longer frames than 16,384 bytes.
    private func knownMaxFrameLength(fromClient: Bool) -> Int? {
        (fromClient ? settingsSeenFromServer : settingsSeenFromClient) ? maxFrameLength(fromClient: fromClient) : nil
    }

    /// Gives `reader`, which reads the client's (`fromClient`) or the server's bytes, the frame
    /// lengths the receiver's SETTINGS allow: the longest it takes at a boundary it looks for after
    /// lost bytes, and, once the SETTINGS were seen, the longest it takes at all.
    func bound(_ reader: inout HTTP2FrameReader, fromClient: Bool) {
        reader.maxResynchronizingFrameLength = maxFrameLength(fromClient: fromClient)
        reader.maxFrameLength = knownMaxFrameLength(fromClient: fromClient)
    }

    /// Takes every frame `reader`, which reads the client's (`fromClient`) or the server's bytes,
    /// has whole. A frame the reader rejects and a run of bytes it passes over are problems, named
    /// with the connection when `namingConnection`. A frame header too long for its receiver leaves
    /// the reader looking for a boundary: the frames it passes over are unknown, so the sender's
    /// HPACK table is marked uncertain before any later block is read.
    mutating func read(
        _ reader: inout HTTP2FrameReader, fromClient: Bool, timestamp: CaptureTimestamp, namingConnection: Bool,
        into records: inout [CaptureRecord]
    ) {
        var fromClient = fromClient
        var named = namingConnection ? connection : nil
        var swapsSeen = roleSwaps
        while true {
            if roleSwaps != swapsSeen {
                // A header block showed that the sides were the other way round.
                swapsSeen = roleSwaps
                fromClient.toggle()
                named = namingConnection ? connection : nil
                bound(&reader, fromClient: fromClient)
            }
            let event: HTTP2FrameReader.Event?
            do throws(CaptureError) {
                event = try reader.next()
            } catch {
                records.append(.problem(CaptureProblem(timestamp: nil, connection: named, error: error)))
                if reader.isLookingForFrameBoundary { lostUnknownFrames(fromClient: fromClient, timestamp: timestamp) }
                continue
            }
            switch event {
            case nil:
                return
            case .frame(let frame):
                receive(frame, fromClient: fromClient, into: &records)
            case .preface:
                break
            case .skipped(let streamOffset, let length, let byteOffset):
                records.append(
                    Self.skippedRun(
                        streamOffset: streamOffset, length: length, byteOffset: byteOffset, connection: named,
                        timestamp: nil))
            case .lostFrame(let frame):
                // Reading frames loses none (a gap, the end or a bound does), but it is reported all the same.
                lost(frame, fromClient: fromClient, because: .missingBytes, timestamp: nil, into: &records)
            }
        }
    }

    /// Takes one frame that the client (`fromClient`) or the server sent.
    mutating func receive(_ frame: CapturedHTTP2Frame, fromClient: Bool, into records: inout [CaptureRecord]) {
        // A frame opens at most the call of its own stream.
        let hadCall = calls.index(forKey: frame.streamID) != nil
        let swapsBefore = roleSwaps
        apply(frame, fromClient: fromClient, into: &records)
        modifySender(fromClient: roleSwaps == swapsBefore ? fromClient : !fromClient) { $0.resumedAfterGap = false }
        if let index = calls.index(forKey: frame.streamID) {
            if !hadCall { openingOrder.append(frame.streamID) }
            // Only a frame's own call takes or gives back message buffer room.
            let messageBytes = calls.values[index].bufferedMessageBytes
            heldMessageBytes += messageBytes - calls.values[index].messageBytes
            calls.values[index].messageBytes = messageBytes
        }
        if heldBytes > heldBytesLimit { giveUpOldestCalls(timestamp: frame.timestamp, into: &records) }
        if openingOrder.count > 2 * calls.count + 1_024 {
            openingOrder = openingOrder[openingOrderStart...].filter { calls.index(forKey: $0) != nil }
            openingOrderStart = 0
        }
    }

    private mutating func apply(_ frame: CapturedHTTP2Frame, fromClient: Bool, into records: inout [CaptureRecord]) {
        if let pending = (fromClient ? client : server).pendingBlock {
            guard frame.type == .continuation, frame.streamID == pending.streamID else {
                setPending(nil, fromClient: fromClient)
                if pending.mayHaveEndedInGap { return apply(frame, fromClient: fromClient, into: &records) }
                // RFC 9113 section 6.10: nothing may come between a header block's frames.
                problem(
                    .malformedFrame,
                    "a \(frame.type) frame on stream \(frame.streamID) interrupted the header block of stream "
                        + "\(pending.streamID)",
                    frame: frame, into: &records)
                return apply(frame, fromClient: fromClient, into: &records)
            }
        }
        switch frame.type {
        case .headers:
            let block = PendingBlock(
                streamID: frame.streamID, fragments: [], endStream: frame.flags.contains(.endStream),
                byteOffset: frame.byteOffset)
            headerFragment(frame, of: block, fromClient: fromClient, into: &records)
        case .pushPromise:
            // RFC 9113 section 6.6: its field block is decoded with the sender's HPACK context like
            // any other (RFC 7541 section 2.2); an entry it adds is named by the sender's later blocks.
            let block = PendingBlock(
                streamID: frame.streamID, fragments: [], endStream: false, byteOffset: frame.byteOffset,
                isPushPromise: true)
            headerFragment(frame, of: block, fromClient: fromClient, into: &records)
        case .continuation:
            // Taken out while it grows, so that appending does not copy what it holds.
            guard let block = (fromClient ? client : server).pendingBlock else {
                if (fromClient ? client : server).resumedAfterGap {
                    return continuationAfterGap(frame, fromClient: fromClient)
                }
                problem(
                    .malformedFrame, "a CONTINUATION frame on stream \(frame.streamID) follows no header block",
                    frame: frame, into: &records)
                return
            }
            setPending(nil, fromClient: fromClient)
            headerFragment(frame, of: block, fromClient: fromClient, into: &records)
        case .data:
            data(frame, fromClient: fromClient, into: &records)
        case .rstStream:
            let code = frame.payload.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard var call = existingCall(frame.streamID) else { return }
            let events = call.response.receiveReset(HTTP2ErrorCode(rawValue: code), sentByClient: fromClient)
            calls[frame.streamID] = call
            responseEvents(
                events, streamID: frame.streamID, timestamp: frame.timestamp, byteOffset: frame.byteOffset,
                into: &records)
        case .settings:
            guard !frame.flags.contains(.ack) else {
                // The sender acknowledges the peer's oldest SETTINGS it had not: a lower table size
                // limit in it now bounds the sender's size updates.
                modifySender(fromClient: fromClient) { $0.acknowledgeOldestSettings() }
                return
            }
            settings(frame.payload, fromClient: fromClient)
        default:
            // PING, WINDOW_UPDATE, PRIORITY, GOAWAY and unknown frames change no call's messages.
            break
        }
    }

    /// Ends what is open at the end of the capture or connection: an unfinished header block is
    /// reported, and open calls end with the Wire layer's status for a connection that went away,
    /// saying `reason` (what happened to the connection).
    mutating func finish(
        timestamp: CaptureTimestamp?, reason: String = "the capture ended before the call did",
        into records: inout [CaptureRecord]
    ) {
        for fromClient in [true, false] {
            if let pending = (fromClient ? client : server).pendingBlock, !pending.mayHaveEndedInGap {
                records.append(
                    .problem(
                        CaptureProblem(
                            timestamp: timestamp, connection: connection, streamID: pending.streamID,
                            error: CaptureError(
                                code: .malformedFrame,
                                message: "the header block of stream \(pending.streamID) never ended",
                                byteOffset: pending.byteOffset))))
                setPending(nil, fromClient: fromClient)
            }
        }
        for streamID in calls.keys.sorted() {
            guard var call = calls.removeValue(forKey: streamID) else { continue }
            let events = call.response.receiveEndOfConnection(requestSent: true, reason: reason)
            calls[streamID] = call
            responseEvents(
                events, streamID: streamID, timestamp: timestamp ?? CaptureTimestamp(seconds: 0, nanoseconds: 0),
                byteOffset: nil, into: &records)
        }
        calls.removeAll()
        heldHeaderBytes = 0
        heldMessageBytes = 0
        openingOrder = []
        openingOrderStart = 0
    }

    /// Gives up the oldest open calls until the rest hold no more than ``heldBytesLimit``: each is
    /// reported and ends as a call the capture lost.
    private mutating func giveUpOldestCalls(timestamp: CaptureTimestamp, into records: inout [CaptureRecord]) {
        while heldBytes > heldBytesLimit, openingOrderStart < openingOrder.count {
            let streamID = openingOrder[openingOrderStart]
            openingOrderStart += 1
            guard calls.index(forKey: streamID) != nil else { continue }
            records.append(
                .problem(
                    CaptureProblem(
                        timestamp: timestamp, connection: connection, streamID: streamID,
                        error: CaptureError(
                            code: .tooManyOpenCalls,
                            message: "the open calls held more than \(heldBytesLimit) bytes (their header fields, "
                                + "unfinished messages and \(Self.callOverhead) bytes each); the oldest, stream "
                                + "\(streamID), is given up"))))
            giveUpCall(streamID, because: "to bound the memory of open calls", timestamp: timestamp, into: &records)
        }
    }

    /// Ends the open call on `streamID` before the capture shows its end, as the capture's lost
    /// calls end (UNAVAILABLE, the connection's traffic lost), saying why; false when no call is
    /// open there.
    @discardableResult
    mutating func giveUpCall(
        _ streamID: UInt32, because reason: String, timestamp: CaptureTimestamp, into records: inout [CaptureRecord]
    ) -> Bool {
        guard var call = calls.removeValue(forKey: streamID) else { return false }
        let events = call.response.cancel(
            with: CallStatus(
                code: .unavailable, message: "the capture decoder gave the call up before it ended, \(reason)",
                origin: .connection(requestSent: true)))
        calls[streamID] = call
        // The call's end takes it out of the table and releases what it held.
        responseEvents(events, streamID: streamID, timestamp: timestamp, byteOffset: nil, into: &records)
        return true
    }

    // MARK: Frames

    /// Swaps which endpoint is the client and which the server: their HPACK tables (each follows
    /// its sender), what their SETTINGS said, and what the open calls read from each.
    mutating func swapRoles() {
        swap(&client, &server)
        connection = CapturedConnection(id: connection.id, client: connection.server, server: connection.client)
        swap(&maxFrameSizeTakenByClient, &maxFrameSizeTakenByServer)
        swap(&settingsSeenFromClient, &settingsSeenFromServer)
        for streamID in calls.keys { calls[streamID]?.swapSides() }
        roleSwaps += 1
    }

    /// Runs `body` on what is kept of the client's (`fromClient`) or the server's side, in place.
    mutating func modifySender<Result, Failure: Error>(
        fromClient: Bool, _ body: (inout Sender) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        fromClient ? try body(&client) : try body(&server)
    }

    mutating func setPending(_ block: PendingBlock?, fromClient: Bool) {
        modifySender(fromClient: fromClient) { $0.pendingBlock = block }
    }

    /// Adds the header block fragment `frame` carries to `block`, then decodes the block when the
    /// frame ends it, or keeps it pending. A block past ``maxHeaderBlockSize`` is reported once,
    /// counts as lost (the stream's messages are read without it, and the sender's HPACK table is
    /// unknown from then on), and its further fragments are passed over.
    private mutating func headerFragment(
        _ frame: CapturedHTTP2Frame, of block: PendingBlock, fromClient: Bool, into records: inout [CaptureRecord]
    ) {
        var block = block
        if !block.isDiscarded {
            if block.fragments.count + frame.payload.count <= Self.maxHeaderBlockSize {
                block.fragments.append(contentsOf: frame.payload)
            } else {
                block.isDiscarded = true
                block.fragments = []
                // Reported where the block began (a CONTINUATION is on the block's stream).
                problem(
                    .undecodableHeaderBlock,
                    "the header block of stream \(block.streamID) is longer than \(Self.maxHeaderBlockSize) bytes; "
                        + "it is passed over",
                    frame: frame, byteOffset: block.byteOffset, into: &records)
                modifySender(fromClient: fromClient) { $0.headerBlocks.loseTableState() }
                if !block.isPushPromise {
                    unreadHeaders(
                        streamID: block.streamID, fromClient: fromClient, endStream: block.endStream,
                        because: "is too long to read", timestamp: frame.timestamp, into: &records)
                }
            }
        }
        guard frame.flags.contains(.endHeaders) else {
            setPending(block, fromClient: fromClient)
            return
        }
        if block.isDiscarded { return }
        if block.isPushPromise {
            pushPromiseBlock(block, fromClient: fromClient, timestamp: frame.timestamp, into: &records)
        } else {
            headerBlock(block, fromClient: fromClient, timestamp: frame.timestamp, into: &records)
        }
    }

    /// Decodes a PUSH_PROMISE's field block with the sender's HPACK table, which it may add entries
    /// to, and drops its fields: gRPC does not push, and the promised request is no call here. A
    /// block that does not decode is reported, as any other is.
    private mutating func pushPromiseBlock(
        _ block: PendingBlock, fromClient: Bool, timestamp: CaptureTimestamp, into records: inout [CaptureRecord]
    ) {
        // The promised fields are a request's, whoever sends them.
        _ = decodeFields(of: block, fromClient: fromClient, sentByClient: true, timestamp: timestamp, into: &records)
    }

    /// The fields of `block`, decoded with the HPACK table of the side that sent it; nil, with the
    /// problem reported, when the block does not decode.
    private mutating func decodeFields(
        of block: PendingBlock, fromClient: Bool, sentByClient: Bool, timestamp: CaptureTimestamp,
        into records: inout [CaptureRecord]
    ) -> [(name: String, value: String)]? {
        do throws(CaptureError) {
            return try modifySender(fromClient: fromClient) { (sender) throws(CaptureError) in
                try sender.headerBlocks.decode(
                    block.fragments, byteOffset: block.byteOffset, streamID: block.streamID,
                    sentByClient: sentByClient)
            }
        } catch {
            records.append(
                .problem(
                    CaptureProblem(timestamp: timestamp, connection: connection, streamID: block.streamID, error: error)
                ))
            return nil
        }
    }

    private mutating func settings(_ payload: ArraySlice<UInt8>, fromClient: Bool) {
        if fromClient { settingsSeenFromClient = true } else { settingsSeenFromServer = true }
        var tableSize: Int?
        var index = payload.startIndex
        while index + 6 <= payload.endIndex {
            let identifier = UInt16(payload[index]) << 8 | UInt16(payload[index + 1])
            let value = payload[(index + 2)..<(index + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            index += 6
            // RFC 9113 section 6.5.2: SETTINGS_HEADER_TABLE_SIZE bounds the table the *peer*
            // encodes with, so it applies to the header blocks this endpoint receives, once the
            // peer acknowledges it (section 6.5.3).
            if identifier == 0x1 { tableSize = Int(min(value, 1 << 24)) }
            // SETTINGS_MAX_FRAME_SIZE: values outside 2^14...2^24-1 are a connection error, and
            // change nothing here.
            if identifier == 0x5, (16_384...16_777_215).contains(value) {
                if fromClient {
                    maxFrameSizeTakenByClient = Int(value)
                } else {
                    maxFrameSizeTakenByServer = Int(value)
                }
            }
        }
        modifySender(fromClient: !fromClient) { sender in
            sender.unacknowledgedTableSizes.append(tableSize)
            sender.applyTableSizeLimit()
            // Acknowledgments the capture lost would make the queue grow: the oldest count as seen.
            while sender.unacknowledgedTableSizes.count > Self.maxUnacknowledgedSettings {
                sender.acknowledgeOldestSettings()
            }
        }
    }

    private mutating func headerBlock(
        _ block: PendingBlock, fromClient: Bool, timestamp: CaptureTimestamp, into records: inout [CaptureRecord]
    ) {
        guard
            let fields = decodeFields(
                of: block, fromClient: fromClient, sentByClient: fromClient, timestamp: timestamp, into: &records)
        else {
            unreadHeaders(
                streamID: block.streamID, fromClient: fromClient, endStream: block.endStream,
                because: "does not decode", timestamp: timestamp, into: &records)
            return
        }
        if let moved = (fromClient ? client : server).headerBlocks.lastRealignment {
            records.append(
                .problem(
                    CaptureProblem(
                        timestamp: timestamp, connection: connection, streamID: block.streamID,
                        error: CaptureError(
                            code: .truncatedCapture,
                            message: "the header block of stream \(block.streamID) reads as a well-formed header list "
                                + "only with the sender's older HPACK entries \(moved) places further on: blocks the "
                                + "capture lost added \(moved) entries, and its table is read that way from here "
                                + "(its fields stay headersUncertain)",
                            byteOffset: block.byteOffset))))
        }
        var fromClient = fromClient
        if !rolesAreKnown, let sentByClient = Self.sentByClient(fields) {
            rolesAreKnown = true
            if sentByClient != fromClient {
                swapRoles()
                fromClient = sentByClient
            }
        }
        let fieldBytes = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
        if fromClient {
            guard !endedStreams.contains(block.streamID) else { return }
            var call = calls.removeValue(forKey: block.streamID) ?? Call(maxMessageSize: options.maxMessageSize)
            if call.started == nil { call.started = timestamp }
            highestStreamID = max(highestStreamID, block.streamID)
            call.headerBytes += fieldBytes
            heldHeaderBytes += fieldBytes
            if client.headerBlocks.lastBlockWasUncertain { call.headersUncertain = true }
            let events = call.request.receiveHeaders(fields, endStream: block.endStream)
            for event in events {
                if case .requestHead(let head) = event { call.setMethod(head.method.path, inferred: false) }
            }
            calls[block.streamID] = call
            requestEvents(
                events, streamID: block.streamID, timestamp: timestamp, byteOffset: block.byteOffset, into: &records)
        } else {
            guard var call = existingCall(block.streamID) else { return }
            call.headerBytes += fieldBytes
            heldHeaderBytes += fieldBytes
            if server.headerBlocks.lastBlockWasUncertain { call.headersUncertain = true }
            // A block that ends the stream before any response head was read is the trailers when
            // it has no :status: the capture began after the headers, or lost them.
            let events =
                block.endStream && call.response.head == nil
                ? call.response.receiveTrailersWithoutHead(fields)
                : call.response.receiveHeaders(fields, endStream: block.endStream)
            calls[block.streamID] = call
            responseEvents(
                events, streamID: block.streamID, timestamp: timestamp, byteOffset: block.byteOffset, into: &records)
        }
    }

    /// A header block that was not read (it does not decode, or is too long): the stream's messages
    /// are read without it from now on; or, when the server's block ended the stream (RFC 9113
    /// section 5.1: END_STREAM closes its side), the call ends there, given up as a call whose
    /// status the capture cannot tell, as when the block is lost (`loseHeaderBlock`).
    mutating func unreadHeaders(
        streamID: UInt32, fromClient: Bool, endStream: Bool, because reason: String, timestamp: CaptureTimestamp,
        into records: inout [CaptureRecord]
    ) {
        if !fromClient, endStream {
            giveUpCall(
                streamID, because: "as the header block that ended it \(reason)", timestamp: timestamp,
                into: &records)
        } else {
            lostHeaders(streamID: streamID, fromClient: fromClient, endStream: endStream, timestamp: timestamp)
        }
    }

    /// A header block that did not decode: the stream's messages are read without it from now on.
    mutating func lostHeaders(streamID: UInt32, fromClient: Bool, endStream: Bool, timestamp: CaptureTimestamp) {
        guard var call = existingCall(streamID) else { return }
        if call.started == nil, fromClient { call.started = timestamp }
        if fromClient {
            if call.rawRequest == nil { call.rawRequest = GRPCMessageDeframer(maxMessageSize: options.maxMessageSize) }
        } else if call.response.head == nil {
            if call.rawResponse == nil {
                call.rawResponse = GRPCMessageDeframer(maxMessageSize: options.maxMessageSize)
            }
        }
        if call.method == nil, let override = options.methodOverride { call.setMethod(override, inferred: true) }
        calls[streamID] = call
    }

    private mutating func data(_ frame: CapturedHTTP2Frame, fromClient: Bool, into records: inout [CaptureRecord]) {
        guard var call = existingCall(frame.streamID) else { return }
        let endStream = frame.flags.contains(.endStream)
        if fromClient {
            if call.request.head == nil {
                // No request headers (lost, or before the capture): read the messages without them.
                // Taken out of the call while it reads, so that appending does not copy its buffer.
                var deframer = call.rawRequest ?? GRPCMessageDeframer(maxMessageSize: options.maxMessageSize)
                call.rawRequest = nil
                let payloads = Self.drain(&deframer, frame.payload)
                call.rawRequest = deframer
                calls[frame.streamID] = call
                for payload in payloads {
                    rawMessage(payload, direction: .request, frame: frame, into: &records)
                }
                return
            }
            let events = call.request.receiveData(frame.payload, endStream: endStream)
            calls[frame.streamID] = call
            requestEvents(
                events, streamID: frame.streamID, timestamp: frame.timestamp, byteOffset: frame.byteOffset,
                into: &records)
        } else {
            if call.response.head == nil, !call.response.isFinished {
                var deframer = call.rawResponse ?? GRPCMessageDeframer(maxMessageSize: options.maxMessageSize)
                call.rawResponse = nil
                let payloads = Self.drain(&deframer, frame.payload)
                call.rawResponse = deframer
                calls[frame.streamID] = call
                for payload in payloads {
                    rawMessage(payload, direction: .response, frame: frame, into: &records)
                }
                return
            }
            let events = call.response.receiveData(frame.payload, endStream: endStream)
            calls[frame.streamID] = call
            responseEvents(
                events, streamID: frame.streamID, timestamp: frame.timestamp, byteOffset: frame.byteOffset,
                into: &records)
        }
    }

}
