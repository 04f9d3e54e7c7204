/// Limits the binary decoder holds input to.
public struct DecodingOptions: Sendable, Hashable {
    /// The default ``maxDecodedSize``: 600 MiB, 150 times the default ``maxMessageSize``. Google's upb
    /// takes up to 149 times a 4 MiB input's size to decode it (two million empty sub-messages; see
    /// BENCHMARKS.md, Decoded memory), so no 4 MiB input that upb decodes in its own worst case needs
    /// more here than upb itself would take.
    public static let defaultMaxDecodedSize = 600 * 1024 * 1024

    /// The largest message accepted, in bytes. The default, 4 MiB, is gRPC's default receive limit.
    public var maxMessageSize: Int
    /// How deeply unknown groups may nest before the input is refused (the schema's own messages
    /// nest only a few levels). The default, 100, is the limit Google's parsers use.
    public var maxNestingDepth: Int
    /// The most memory, in bytes, one message may take while it is decoded: protobuf-c's C structs
    /// and the Swift values built from them, counted before each is allocated. Past it decoding
    /// stops with ``CodecError/Code/resourceExhausted``, having allocated no more than this. The
    /// default is ``defaultMaxDecodedSize``.
    public var maxDecodedSize: Int

    /// The defaults: 4 MiB, 100 levels, and ``defaultMaxDecodedSize``.
    public init(
        maxMessageSize: Int = 4 * 1024 * 1024,
        maxNestingDepth: Int = 100,
        maxDecodedSize: Int = DecodingOptions.defaultMaxDecodedSize
    ) {
        self.maxMessageSize = maxMessageSize
        self.maxNestingDepth = maxNestingDepth
        self.maxDecodedSize = maxDecodedSize
    }
}
