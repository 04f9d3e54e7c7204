/// What the frame readers give up — runs of bytes that belong to no frame they could find, and
/// frames whose payload they let go — reported as problems, and for a lost frame, the call or
/// header block it belonged to given up too, so that nothing read after it is read wrongly.
extension HTTP2ConnectionDecoder {
    /// Why a frame reader gave up a frame.
    enum FrameLoss {
        /// Bytes of it are missing from the capture.
        case missingBytes
        /// The input ended inside it.
        case inputEnded
        /// It was let go to keep the frames still arriving within `limit` bytes across the capture
        /// (``CaptureOptions/maxPartialFrameBytes``).
        case memoryBound(limit: Int)
    }

    /// The problem record for a run of bytes a frame reader passed over.
    static func skippedRun(
        streamOffset: Int64, length: Int64, byteOffset: Int64, connection: CapturedConnection?,
        timestamp: CaptureTimestamp?
    ) -> CaptureRecord {
        .problem(
            CaptureProblem(
                timestamp: timestamp, connection: connection,
                error: CaptureError(
                    code: .malformedFrame,
                    message: "\(length) bytes at stream offset \(streamOffset) belong to no frame; skipped",
                    byteOffset: byteOffset)))
    }

    /// Reports a frame that a reader of the client's (`fromClient`) or the server's bytes gave up,
    /// and gives up what depended on it: the call of a DATA frame (its messages after the gap could
    /// not be told apart), or the header block of a HEADERS, PUSH_PROMISE or CONTINUATION frame
    /// (its stream is read without it, and the sender's later blocks that name HPACK table entries
    /// from before it are marked uncertain, since the block may have added entries). A frame the
    /// input ended inside only is reported: the
    /// calls end with the input. `fromClient` is nil when the sender is not known (an interleaved
    /// input); then nothing is given up.
    mutating func lost(
        _ frame: LostHTTP2Frame, fromClient: Bool?, because loss: FrameLoss, timestamp: CaptureTimestamp?,
        into records: inout [CaptureRecord]
    ) {
        let when = timestamp ?? CaptureTimestamp(seconds: 0, nanoseconds: 0)
        var consequence = ""
        if let fromClient, !isInputEnd(loss) {
            switch frame.type {
            case .data:
                let side = fromClient ? "request" : "response"
                let reason =
                    switch loss {
                    case .memoryBound: "to bound the memory of frames still arriving"
                    default: "as part of its \(side) is missing from the capture"
                    }
                if calls.index(forKey: frame.streamID) != nil {
                    consequence = "; its call is given up"
                    problem(frame, loss, consequence, at: timestamp, into: &records)
                    giveUpCall(frame.streamID, because: reason, timestamp: when, into: &records)
                    return
                }
            case .headers, .pushPromise, .continuation:
                consequence = "; the header block is lost" + Self.uncertainTableNote
                problem(frame, loss, consequence, at: timestamp, into: &records)
                loseHeaderBlock(of: frame, fromClient: fromClient, timestamp: when, into: &records)
                return
            default:
                break
            }
        }
        problem(frame, loss, consequence, at: timestamp, into: &records)
    }

    private func isInputEnd(_ loss: FrameLoss) -> Bool {
        if case .inputEnded = loss { return true }
        return false
    }

    private func problem(
        _ frame: LostHTTP2Frame, _ loss: FrameLoss, _ consequence: String, at timestamp: CaptureTimestamp?,
        into records: inout [CaptureRecord]
    ) {
        let code: CaptureError.Code
        let what: String
        switch loss {
        case .missingBytes:
            code = .truncatedCapture
            what = "bytes of the \(frame.label) are missing from the capture"
        case .inputEnded:
            code = .truncatedCapture
            what =
                "the sender's bytes end inside the \(frame.label): \(frame.bytesRead) of its "
                + "\(HTTP2FrameReader.frameHeaderLength + frame.length) bytes were read"
        case .memoryBound(let limit):
            code = .tooManyOpenCalls
            what =
                "the frames still arriving held more than \(limit) bytes across the capture; the largest part, "
                + "\(frame.bytesRead) bytes of the \(frame.label), is given up"
        }
        records.append(
            .problem(
                CaptureProblem(
                    timestamp: timestamp, connection: connection, streamID: frame.streamID == 0 ? nil : frame.streamID,
                    error: CaptureError(code: code, message: what + consequence, byteOffset: frame.byteOffset))))
    }

    /// What a problem says when the sender's HPACK table may lack entries from then on.
    static let uncertainTableNote =
        ", and the sender's later header blocks that name HPACK table entries from before are marked headersUncertain"

    /// Bytes the client (`fromClient`) or the server sent went missing where no frame was known:
    /// they may have held header blocks that added HPACK table entries, so the sender's later
    /// blocks that name older entries are marked uncertain, and a header block still waiting for
    /// its CONTINUATION frames is lost with its stream's headers (its last frame may have been
    /// among the lost bytes: what follows is read as it comes, without a second report).
    mutating func lostUnknownFrames(fromClient: Bool, timestamp: CaptureTimestamp) {
        modifySender(fromClient: fromClient) { sender in
            sender.headerBlocks.markTableUncertain()
            sender.resumedAfterGap = true
        }
        guard let pending = (fromClient ? client : server).pendingBlock else { return }
        var discarded = pending
        discarded.fragments = []
        discarded.isDiscarded = true
        discarded.mayHaveEndedInGap = true
        setPending(discarded, fromClient: fromClient)
        guard !pending.isDiscarded else { return }
        lostHeaders(
            streamID: pending.streamID, fromClient: fromClient, endStream: pending.endStream, timestamp: timestamp)
    }

    /// The first frame after bytes of unknown frames went missing is a CONTINUATION with no header
    /// block open: its block began among the lost bytes. The stream is read without the block (the
    /// gap was reported), and the block's further CONTINUATION frames are passed over as they come.
    mutating func continuationAfterGap(_ frame: CapturedHTTP2Frame, fromClient: Bool) {
        if !frame.flags.contains(.endHeaders) {
            setPending(
                PendingBlock(
                    streamID: frame.streamID, fragments: [], endStream: false, byteOffset: frame.byteOffset,
                    isDiscarded: true),
                fromClient: fromClient)
        }
        lostHeaders(streamID: frame.streamID, fromClient: fromClient, endStream: false, timestamp: frame.timestamp)
    }

    /// The header block `frame` carried part of is lost: the sender's table may lack its entries
    /// from now on, the stream is read without the block, and a server's block that ended the
    /// stream (its trailers) takes the call with it, since its status is not known.
    private mutating func loseHeaderBlock(
        of frame: LostHTTP2Frame, fromClient: Bool, timestamp: CaptureTimestamp, into records: inout [CaptureRecord]
    ) {
        let pending = (fromClient ? client : server).pendingBlock
        var streamID = frame.streamID
        var endStream = frame.flags.contains(.endStream)
        if frame.type == .continuation, let pending {
            streamID = pending.streamID
            endStream = pending.endStream
        }
        modifySender(fromClient: fromClient) { $0.headerBlocks.markTableUncertain() }
        if frame.flags.contains(.endHeaders) {
            setPending(nil, fromClient: fromClient)
        } else {
            // The block's further CONTINUATION frames are passed over as they come.
            setPending(
                PendingBlock(
                    streamID: streamID, fragments: [], endStream: endStream, byteOffset: frame.byteOffset,
                    isDiscarded: true),
                fromClient: fromClient)
        }
        if frame.type == .pushPromise { return }
        if !fromClient, endStream {
            giveUpCall(
                streamID, because: "as the header block that ended it is missing from the capture",
                timestamp: timestamp,
                into: &records)
        } else {
            lostHeaders(streamID: streamID, fromClient: fromClient, endStream: endStream, timestamp: timestamp)
        }
    }
}
