import FleetEngineStatus

/// One thing that happens on a call's HTTP/2 stream, as a fuzzer's script describes it.
public enum WireFuzzFrame {
    /// A header block; `withoutHead` sends it as trailers of a response whose headers were not seen
    /// (``GRPCResponseReader/receiveTrailersWithoutHead(_:)``, the capture decoder's way in).
    case headers([(name: String, value: String)], endStream: Bool, withoutHead: Bool)
    /// A DATA frame's payload.
    case data([UInt8], endStream: Bool)
    /// An RST_STREAM frame.
    case reset(HTTP2ErrorCode)
    /// The connection under the stream went away.
    case endOfConnection(requestSent: Bool)
    /// The caller gave up on the call (its deadline passed).
    case cancel
}
