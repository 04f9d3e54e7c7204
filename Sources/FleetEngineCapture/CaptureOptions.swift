/// How the capture decoder reads calls.
public struct CaptureOptions: Sendable {
    /// The `:path` to assume for calls whose request headers could not be decoded (a capture that
    /// began mid-connection), instead of inferring it from the messages. Records say it was not
    /// read from the capture.
    public var methodOverride: String?
    /// The largest gRPC message read, before and after decompression; larger ones are reported as
    /// problems. 16 MiB by default, above gRPC's usual 4 MiB limits.
    public var maxMessageSize: Int

    public init(methodOverride: String? = nil, maxMessageSize: Int = 16 << 20) {
        self.methodOverride = methodOverride
        self.maxMessageSize = maxMessageSize
    }
}
