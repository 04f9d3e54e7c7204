public import FleetEngineCodec

/// How the capture decoder reads calls.
public struct CaptureOptions: Sendable {
    /// The `:path` to assume for calls whose request headers could not be decoded (a capture that
    /// began mid-connection), instead of inferring it from the messages. Records say it was not
    /// read from the capture.
    public var methodOverride: String?
    /// The largest gRPC message read, before and after decompression; larger ones are reported as
    /// problems. 16 MiB by default, above gRPC's usual 4 MiB limits.
    public var maxMessageSize: Int
    /// The most memory, in bytes, decoding one message may take (`DecodingOptions.maxDecodedSize`);
    /// a message that would take more is reported with `CodecError.Code.resourceExhausted` in
    /// place of its value. `DecodingOptions.defaultMaxDecodedSize` (600 MiB) by default.
    public var maxDecodedMessageSize: Int
    /// The most memory the calls still open may hold across the capture, counted as their header
    /// fields (RFC 7541's size of each field), the buffers their unfinished messages wait in, and
    /// about a kilobyte of state per call. HPACK lets a header block of a few bytes stand for a
    /// megabyte of fields, and a call may send the start of a large message and never the rest, so
    /// without a bound a capture that opens calls and never ends them could take any amount of
    /// memory. Past it, the oldest open calls of the connection that went over are given up: each
    /// is reported (``CaptureError/Code/tooManyOpenCalls``) and ends as a call the capture lost.
    /// 64 MiB by default: tens of thousands of ordinary open calls.
    public var maxOpenCallBytes: Int
    /// The most bytes the frames still arriving may hold across the capture (their buffers take
    /// up to about twice as much memory): each direction of a connection buffers the frame it is
    /// receiving until the frame is whole, and a frame may be 16 MiB long, so a capture of many
    /// connections each sending part of a long frame could otherwise take any amount of memory.
    /// Past it, the reader holding the most gives up the frame it holds part of: the frame is
    /// reported (``CaptureError/Code/tooManyOpenCalls``) with what it belonged to (the call of a
    /// DATA frame ends as a call the capture lost; a header block is lost), and reading goes on
    /// after it. 128 MiB by default: eight 16 MiB frames at once.
    public var maxPartialFrameBytes: Int
    /// The secrets that decrypt the capture's TLS connections (an NSS key log, e.g. the file
    /// `SSLKEYLOGFILE` named when the traffic was made). A pcapng file's Decryption Secrets Blocks
    /// add theirs to it. Empty by default: TLS connections are then reported and passed over.
    public var tlsKeyLog: TLSKeyLog

    /// Options from their parts.
    public init(
        methodOverride: String? = nil, maxMessageSize: Int = 16 << 20, maxOpenCallBytes: Int = 64 << 20,
        maxPartialFrameBytes: Int = 128 << 20, tlsKeyLog: TLSKeyLog = TLSKeyLog(),
        maxDecodedMessageSize: Int = DecodingOptions.defaultMaxDecodedSize
    ) {
        self.maxDecodedMessageSize = maxDecodedMessageSize
        self.tlsKeyLog = tlsKeyLog
        self.methodOverride = methodOverride
        self.maxMessageSize = maxMessageSize
        self.maxOpenCallBytes = maxOpenCallBytes
        self.maxPartialFrameBytes = maxPartialFrameBytes
    }
}
