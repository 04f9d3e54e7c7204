/// How the DATA frames of a script are cut before a reader gets them. Once the head has arrived,
/// a reader's results must not depend on it (gRPC PROTOCOL-HTTP2, "Data Frames": message
/// boundaries need not line up with frames).
public enum DataCut: CaseIterable, CustomStringConvertible {
    /// As the script has them.
    case asScripted
    /// Each run of consecutive DATA frames as one frame (up to the first with END_STREAM).
    case coalesced
    /// Each DATA frame as one frame per byte (END_STREAM on the last).
    case byteByByte

    /// The cut's name, for a finding.
    public var description: String {
        switch self {
        case .asScripted: "as scripted"
        case .coalesced: "coalesced"
        case .byteByByte: "byte by byte"
        }
    }
}
