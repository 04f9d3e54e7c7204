/// The type of an HTTP/2 frame (RFC 9113 section 6), as an open set: every 8-bit value is
/// representable, and an unknown type is carried, not refused (section 4.1: such frames are
/// ignored).
public struct HTTP2FrameType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let data = HTTP2FrameType(rawValue: 0x0)
    public static let headers = HTTP2FrameType(rawValue: 0x1)
    public static let priority = HTTP2FrameType(rawValue: 0x2)
    public static let rstStream = HTTP2FrameType(rawValue: 0x3)
    public static let settings = HTTP2FrameType(rawValue: 0x4)
    public static let pushPromise = HTTP2FrameType(rawValue: 0x5)
    public static let ping = HTTP2FrameType(rawValue: 0x6)
    public static let goAway = HTTP2FrameType(rawValue: 0x7)
    public static let windowUpdate = HTTP2FrameType(rawValue: 0x8)
    public static let continuation = HTTP2FrameType(rawValue: 0x9)

    /// The frame's name as RFC 9113 writes it (`DATA`, `RST_STREAM`...).
    public var description: String {
        switch self {
        case .data: "DATA"
        case .headers: "HEADERS"
        case .priority: "PRIORITY"
        case .rstStream: "RST_STREAM"
        case .settings: "SETTINGS"
        case .pushPromise: "PUSH_PROMISE"
        case .ping: "PING"
        case .goAway: "GOAWAY"
        case .windowUpdate: "WINDOW_UPDATE"
        case .continuation: "CONTINUATION"
        default: "frame type 0x\(String(rawValue, radix: 16))"
        }
    }
}

/// The flags of an HTTP/2 frame header; what a bit means depends on the frame type.
public struct HTTP2FrameFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// END_STREAM on DATA and HEADERS.
    public static let endStream = HTTP2FrameFlags(rawValue: 0x1)
    /// ACK on SETTINGS and PING (the same bit as END_STREAM).
    public static let ack = HTTP2FrameFlags(rawValue: 0x1)
    /// END_HEADERS on HEADERS, PUSH_PROMISE and CONTINUATION.
    public static let endHeaders = HTTP2FrameFlags(rawValue: 0x4)
    /// PADDED on DATA, HEADERS and PUSH_PROMISE.
    public static let padded = HTTP2FrameFlags(rawValue: 0x8)
    /// PRIORITY on HEADERS.
    public static let priority = HTTP2FrameFlags(rawValue: 0x20)
}
