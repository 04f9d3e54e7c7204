import FleetEngineStatus

extension GRPCMetadata {
    /// The trailer a server uses to tell a retrying client when to try again, in milliseconds.
    public static let retryPushbackName = "grpc-retry-pushback-ms"

    /// The delay the server asked for before the next attempt, from `grpc-retry-pushback-ms`.
    ///
    /// gRPC's retry design (proposal A6, "Pushback"): the value is a non-negative decimal number
    /// of milliseconds. Nil when the trailer is absent, negative or not a number; those last two
    /// mean the server asks the client *not* to retry, which ``retryPushbackForbidsRetry`` says.
    /// Only the first such field counts.
    public var retryPushback: Duration? {
        guard case .after(let delay) = retryPushbackAdvice else { return nil }
        return delay
    }

    /// Whether `grpc-retry-pushback-ms` is present but negative or not a number: the server's way
    /// of saying that the call must not be retried (proposal A6, "Pushback").
    public var retryPushbackForbidsRetry: Bool {
        retryPushbackAdvice == .doNotRetry
    }

    /// What `grpc-retry-pushback-ms` asks of a retrying client: nothing (absent), a delay, or no
    /// retry at all (proposal A6, "Pushback").
    public var retryPushbackAdvice: GRPCRetryPushback {
        guard let text = first(named: Self.retryPushbackName) else { return .absent }
        let digits = text[...].trimmingFieldWhitespace().utf8
        // 18 digits always fit an Int64; a longer delay is no more useful than "do not retry".
        guard !digits.isEmpty, digits.count <= 18 else { return .doNotRetry }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .doNotRetry }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return .after(.milliseconds(value))
    }
}

/// A server's retry pushback (`grpc-retry-pushback-ms`, gRPC proposal A6).
public enum GRPCRetryPushback: Hashable, Sendable {
    /// The server said nothing.
    case absent
    /// Wait this long before the next attempt.
    case after(Duration)
    /// Do not retry (a negative or malformed value).
    case doNotRetry
}
