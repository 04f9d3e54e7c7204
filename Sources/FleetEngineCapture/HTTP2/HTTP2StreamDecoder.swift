/// Decodes a raw HTTP/2 connection that was saved without its packets: the bytes each endpoint
/// sent (one input per direction), or one input in which both directions' frames are interleaved
/// whole.
///
/// With one input per direction, give the client's bytes first: each direction keeps its own
/// frame reader and HPACK table, and a call's response is read after its request. In an
/// interleaved input the sender of each frame is worked out from the stream: a header block on a
/// stream above every stream the client has opened opens a new one, so it is the client's request
/// headers (RFC 9113 section 5.1.1: a client opens streams in increasing order), and any other is
/// the server's; DATA and RST_STREAM belong to the server once it has sent the stream a header
/// block, and to the client before; a CONTINUATION to whoever sent the block it continues.
///
/// What it keeps per stream for this is the streams the server has answered and whose calls are
/// still open, so memory follows the calls in progress, not how many the input held.
public struct HTTP2StreamDecoder: Sendable {
    private var connection: HTTP2ConnectionDecoder
    private var clientReader: HTTP2FrameReader
    private var serverReader: HTTP2FrameReader
    private var interleavedReader: HTTP2FrameReader
    /// For interleaved input: the highest stream a client header block opened.
    private var highestClientStreamID: UInt32 = 0
    /// For interleaved input: the open streams on which the server has sent a header block.
    private(set) var answeredStreams: Set<UInt32> = []
    private var continuationFromClient = true
    private var lastTimestamp: CaptureTimestamp?

    /// A decoder for one connection.
    ///
    /// - Parameters:
    ///   - options: how calls are read.
    ///   - startsAtConnectionStart: whether the inputs begin where the connection began (with the
    ///     client's preface); when false, the first frame boundary is looked for.
    public init(options: CaptureOptions = CaptureOptions(), startsAtConnectionStart: Bool = true) {
        clientReader = HTTP2FrameReader(startsAtConnectionStart: startsAtConnectionStart)
        serverReader = HTTP2FrameReader(startsAtConnectionStart: startsAtConnectionStart)
        interleavedReader = HTTP2FrameReader(startsAtConnectionStart: startsAtConnectionStart)
        connection = HTTP2ConnectionDecoder(
            connection: CapturedConnection(id: 1, client: nil, server: nil), options: options)
    }

    /// Takes the next bytes one endpoint sent.
    ///
    /// - Parameters:
    ///   - bytes: the bytes, in order.
    ///   - fromClient: whether the client sent them.
    ///   - byteOffset: where the first of them is in its input.
    public mutating func receive(_ bytes: ArraySlice<UInt8>, fromClient: Bool, byteOffset: Int64) -> [CaptureRecord] {
        var records: [CaptureRecord] = []
        let timestamp = CaptureTimestamp(seconds: 0, nanoseconds: 0)
        // A reader looking for a frame boundary takes frames as long as the peer's SETTINGS allow.
        if fromClient {
            connection.bound(&clientReader, fromClient: true)
            clientReader.append(bytes, byteOffset: byteOffset, timestamp: timestamp)
            connection.read(
                &clientReader, fromClient: true, timestamp: timestamp, namingConnection: false, into: &records)
        } else {
            connection.bound(&serverReader, fromClient: false)
            serverReader.append(bytes, byteOffset: byteOffset, timestamp: timestamp)
            connection.read(
                &serverReader, fromClient: false, timestamp: timestamp, namingConnection: false, into: &records)
        }
        return records
    }

    /// Takes the next bytes of an input holding both directions' frames.
    public mutating func receiveInterleaved(_ bytes: ArraySlice<UInt8>, byteOffset: Int64) -> [CaptureRecord] {
        var records: [CaptureRecord] = []
        interleavedReader.maxResynchronizingFrameLength = max(
            connection.maxFrameLength(fromClient: true), connection.maxFrameLength(fromClient: false))
        interleavedReader.append(bytes, byteOffset: byteOffset, timestamp: CaptureTimestamp(seconds: 0, nanoseconds: 0))
        while true {
            let event: HTTP2FrameReader.Event?
            do throws(CaptureError) {
                event = try interleavedReader.next()
            } catch {
                records.append(.problem(CaptureProblem(timestamp: nil, connection: nil, streamID: nil, error: error)))
                continue
            }
            guard let event else { break }
            guard case .frame(let frame) = event else {
                Self.report(event, into: &records)
                continue
            }
            let fromClient: Bool
            switch frame.type {
            case .headers:
                fromClient = frame.streamID > highestClientStreamID
                if fromClient {
                    highestClientStreamID = frame.streamID
                } else {
                    answeredStreams.insert(frame.streamID)
                }
                continuationFromClient = fromClient
            case .pushPromise:
                // RFC 9113 section 8.4: only a server sends PUSH_PROMISE.
                fromClient = false
                continuationFromClient = false
            case .continuation:
                fromClient = continuationFromClient
            case .data, .rstStream:
                fromClient = !answeredStreams.contains(frame.streamID)
            default:
                // Connection-level frames: SETTINGS applies to both HPACK tables alike below.
                fromClient = true
            }
            connection.receive(frame, fromClient: fromClient, into: &records)
            if frame.type == .settings { connection.receive(frame, fromClient: false, into: &records) }
            // A stream whose call is over (ended, reset, or given up) needs no sender any more.
            if frame.streamID != 0, connection.calls[frame.streamID] == nil {
                answeredStreams.remove(frame.streamID)
            }
        }
        return records
    }

    /// Ends the input: incomplete frames and calls still open are reported.
    public mutating func finish() -> [CaptureRecord] {
        var records: [CaptureRecord] = []
        for (var reader, fromClient) in [(clientReader, true), (serverReader, false), (interleavedReader, nil)] {
            guard let leftover = reader.finish() else { continue }
            if case .lostFrame(let frame) = leftover {
                connection.lost(frame, fromClient: fromClient, because: .inputEnded, timestamp: nil, into: &records)
            } else {
                Self.report(leftover, into: &records)
            }
        }
        connection.finish(timestamp: nil, into: &records)
        return records
    }

    private static func report(_ event: HTTP2FrameReader.Event, into records: inout [CaptureRecord]) {
        guard case .skipped(let streamOffset, let length, let byteOffset) = event else { return }
        records.append(
            HTTP2ConnectionDecoder.skippedRun(
                streamOffset: streamOffset, length: length, byteOffset: byteOffset, connection: nil, timestamp: nil))
    }
}
