/// An HTTP/2 error code, as RST_STREAM and GOAWAY frames carry it (RFC 9113, section 7).
///
/// An open set: every 32-bit value is representable and an unknown one survives, as RFC 9113
/// section 7 asks ("Unknown or unsupported error codes MUST NOT trigger any special behavior").
public struct HTTP2ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit value on the wire.
    public let rawValue: UInt32

    /// Wraps any value, named or not.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Graceful shutdown; not an error.
    public static let noError = HTTP2ErrorCode(rawValue: 0x0)
    /// A protocol error was detected.
    public static let protocolError = HTTP2ErrorCode(rawValue: 0x1)
    /// The endpoint met an unexpected internal error.
    public static let internalError = HTTP2ErrorCode(rawValue: 0x2)
    /// The peer broke the flow-control protocol.
    public static let flowControlError = HTTP2ErrorCode(rawValue: 0x3)
    /// A SETTINGS frame was not acknowledged in time.
    public static let settingsTimeout = HTTP2ErrorCode(rawValue: 0x4)
    /// A frame arrived after the stream was half-closed.
    public static let streamClosed = HTTP2ErrorCode(rawValue: 0x5)
    /// A frame had an invalid size.
    public static let frameSizeError = HTTP2ErrorCode(rawValue: 0x6)
    /// The stream was refused before any application processing.
    public static let refusedStream = HTTP2ErrorCode(rawValue: 0x7)
    /// The stream is no longer needed.
    public static let cancel = HTTP2ErrorCode(rawValue: 0x8)
    /// The header compression context could not be maintained.
    public static let compressionError = HTTP2ErrorCode(rawValue: 0x9)
    /// The connection of a CONNECT request was reset or abnormally closed.
    public static let connectError = HTTP2ErrorCode(rawValue: 0xA)
    /// The peer is generating excessive load.
    public static let enhanceYourCalm = HTTP2ErrorCode(rawValue: 0xB)
    /// The transport does not meet minimum security requirements.
    public static let inadequateSecurity = HTTP2ErrorCode(rawValue: 0xC)
    /// The endpoint requires HTTP/1.1 instead of HTTP/2.
    public static let http11Required = HTTP2ErrorCode(rawValue: 0xD)

    private static let names = [
        "NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
        "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
    ]

    /// The name RFC 9113 gives this code, or nil for a value it does not define.
    public var name: String? {
        rawValue < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    /// The code with this RFC 9113 name (`"REFUSED_STREAM"`); case is not significant.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name.uppercased()) else { return nil }
        self.init(rawValue: UInt32(index))
    }

    /// The RFC 9113 name, or the value in hex (`0x1f`) when it has none.
    public var description: String {
        name ?? "0x" + String(rawValue, radix: 16)
    }
}
