/// A compression named in a `grpc-encoding` header: how the messages of one direction of a call
/// are compressed.
///
/// An open set (gRPC PROTOCOL-HTTP2, "Content-Coding"): every name is representable, so a name
/// this library does not implement, such as `snappy`, survives being read and can be reported.
/// ``identity``, ``gzip`` and ``deflate`` are the ones it can decompress and compress.
///
/// Names are compared exactly, as gRPC's own implementations parse them.
public struct MessageEncoding: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name as it appears in `grpc-encoding` and `grpc-accept-encoding`.
    public var rawValue: String

    /// Wraps a name; any name is accepted.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// No compression. A message flagged as compressed cannot be read under this encoding.
    public static let identity = MessageEncoding(rawValue: "identity")
    /// The gzip file format (RFC 1952) around a deflate stream.
    public static let gzip = MessageEncoding(rawValue: "gzip")
    /// The zlib format (RFC 1950) around a deflate stream (RFC 1951), which is what gRPC's
    /// implementations send and expect under this name, not a bare deflate stream.
    public static let deflate = MessageEncoding(rawValue: "deflate")

    /// The encodings this library can compress and decompress, `identity` included.
    public static let supported: [MessageEncoding] = [.identity, .gzip, .deflate]

    /// Whether this library can compress and decompress messages with this encoding.
    public var isSupported: Bool { Self.supported.contains(self) }

    /// The text the tool prints for this value.
    public var description: String { rawValue }
}
