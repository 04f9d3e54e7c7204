import FleetEngineStatus

/// A capture, a packet, a TCP stream or an HTTP/2 frame in it could not be read.
///
/// Every failure of the capture decoder is one of these. It says what kind of fault it is
/// (``code``), in words (``message``), and where: the byte offset in the input (the capture file,
/// or the HTTP/2 byte stream of `--h2`) at which the faulty record, packet or frame starts. A fault
/// that another library reported (NIOHPACK, the Wire layer, the codec) keeps that report as
/// ``cause``.
///
/// Two errors are equal when their codes are equal, so a test can build the error it expects
/// from a code alone and compare; the location is checked through the properties.
public struct CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of fault this is.
    ///
    /// A struct over a private enum so that new codes can be added without breaking anyone who
    /// switches over the ones that exist.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case notACapture
            case truncatedCapture
            case malformedRecord
            case unsupportedLinkType
            case malformedPacket
            case malformedFrame
            case undecodableHeaderBlock
            case tooManyOpenCalls
            case notHTTP2
            case readFailed
            case malformedKeyLog
            case malformedTLSRecord
            case tlsHandshakeMissing
            case tlsKeyMissing
            case tlsDecryptionFailed
            case tlsUnsupported
            case keyLogUnused
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The input starts with neither a pcap nor a pcapng magic number.
        public static let notACapture = Code(.notACapture)
        /// Bytes are missing: the input ends inside a file header, a record or a block, bytes of a
        /// TCP stream are not in the capture, or an HTTP/2 frame was cut by either.
        public static let truncatedCapture = Code(.truncatedCapture)
        /// A pcap record or pcapng block contradicts itself: a length that is too small, too large
        /// or not repeated, a packet for an interface that was never described, a bad version.
        public static let malformedRecord = Code(.malformedRecord)
        /// A packet's link type is not one the decoder reads (Ethernet, Linux SLL and SLL2, raw IP,
        /// BSD loopback).
        public static let unsupportedLinkType = Code(.unsupportedLinkType)
        /// A link-layer, IP or TCP header is cut short or inconsistent.
        public static let malformedPacket = Code(.malformedPacket)
        /// An HTTP/2 frame breaks RFC 9113: a length over the limit, a padding longer than the
        /// frame, a CONTINUATION out of place, a wrong preface.
        public static let malformedFrame = Code(.malformedFrame)
        /// HPACK (RFC 7541) could not decode a header block.
        public static let undecodableHeaderBlock = Code(.undecodableHeaderBlock)
        /// The calls open in the capture held more than ``CaptureOptions/maxOpenCallBytes``, and
        /// the oldest open call was given up (it ends as a call the capture lost); or the frames
        /// still arriving held more than ``CaptureOptions/maxPartialFrameBytes``, and the largest
        /// was given up with what it belonged to.
        public static let tooManyOpenCalls = Code(.tooManyOpenCalls)
        /// A connection whose start the capture holds did not begin with the HTTP/2 client preface
        /// (RFC 9113 section 3.4), or whose TLS handshake chose another protocol with ALPN: it is
        /// not HTTP/2, and its bytes are passed over.
        public static let notHTTP2 = Code(.notHTTP2)
        /// The input could not be read (a file that cannot be opened, an I/O error).
        public static let readFailed = Code(.readFailed)
        /// A line of an NSS key log (RFC 9850) is not `LABEL CLIENT_RANDOM SECRET` in hex, or a
        /// secret has the wrong length; the message names the log and the line.
        public static let malformedKeyLog = Code(.malformedKeyLog)
        /// A TLS connection's bytes break the record layer or the handshake's structure (a record
        /// header that is not one, a record longer than TLS allows, application data before the
        /// handshake): the direction, or the connection, is read no further.
        public static let malformedTLSRecord = Code(.malformedTLSRecord)
        /// A TLS connection whose handshake the capture does not hold (it began after the
        /// ClientHello): without its client random no key log entry can be matched, so nothing of
        /// it is decoded.
        public static let tlsHandshakeMissing = Code(.tlsHandshakeMissing)
        /// A TLS connection, or one direction of it, has no secrets in the key log: its records
        /// are passed over.
        public static let tlsKeyMissing = Code(.tlsKeyMissing)
        /// A protected TLS record did not open (its authentication tag did not match: a secret that
        /// is not the connection's, or damaged bytes); its direction is read no further.
        public static let tlsDecryptionFailed = Code(.tlsDecryptionFailed)
        /// A TLS connection uses a version or cipher suite the decoder does not decrypt, or sends
        /// 0-RTT early data, which it does not decrypt either (the rest of the connection is read).
        public static let tlsUnsupported = Code(.tlsUnsupported)
        /// A note: the key log holds secrets, but for none of the capture's TLS connections.
        public static let keyLogUnused = Code(.keyLogUnused)

        /// The text the tool prints for this value.
        public var description: String {
            switch wrapped {
            case .notACapture: "not a capture"
            case .truncatedCapture: "truncated capture"
            case .malformedRecord: "malformed record"
            case .unsupportedLinkType: "unsupported link type"
            case .malformedPacket: "malformed packet"
            case .malformedFrame: "malformed frame"
            case .undecodableHeaderBlock: "undecodable header block"
            case .tooManyOpenCalls: "too many open calls"
            case .notHTTP2: "not HTTP/2"
            case .readFailed: "read failed"
            case .malformedKeyLog: "malformed key log"
            case .malformedTLSRecord: "malformed TLS record"
            case .tlsHandshakeMissing: "TLS handshake missing"
            case .tlsKeyMissing: "TLS key missing"
            case .tlsDecryptionFailed: "TLS decryption failed"
            case .tlsUnsupported: "TLS unsupported"
            case .keyLogUnused: "key log unused"
            }
        }
    }

    /// What kind of fault this is.
    public var code: Code
    /// What was wrong, in words.
    public var message: String
    /// The byte offset in the input at which the faulty record, packet or frame starts.
    public var byteOffset: Int64?
    /// The error another library reported, if this one wraps it.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(code: Code, message: String, byteOffset: Int64? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.byteOffset = byteOffset
        self.cause = cause
    }

    /// An error with just a code, for comparing in tests: `#expect(throws: CaptureError(.malformedFrame))`.
    public init(_ code: Code) {
        self.init(code: code, message: code.description)
    }

    /// Whether two errors have the same code; the message and location do not count.
    public static func == (lhs: CaptureError, rhs: CaptureError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The text the tool prints for this value, on one line with control characters escaped
    /// (`TerminalText`): a message may quote what the capture holds.
    public var description: String {
        var text = "\(code): \(message)"
        if let byteOffset { text += " (at byte offset \(byteOffset))" }
        if let cause { text += " (cause: \(cause))" }
        return TerminalText.escaped(text)
    }
}
