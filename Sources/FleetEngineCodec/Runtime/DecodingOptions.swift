/// Limits the binary decoder holds input to.
public struct DecodingOptions: Sendable, Hashable {
    /// The largest message accepted, in bytes. The default, 4 MiB, is gRPC's default receive limit.
    public var maxMessageSize: Int
    /// How deeply unknown groups may nest before the input is refused (the schema's own messages
    /// nest only a few levels). The default, 100, is the limit Google's parsers use.
    public var maxNestingDepth: Int

    /// The defaults: 4 MiB and 100 levels.
    public init(maxMessageSize: Int = 4 * 1024 * 1024, maxNestingDepth: Int = 100) {
        self.maxMessageSize = maxMessageSize
        self.maxNestingDepth = maxNestingDepth
    }
}
