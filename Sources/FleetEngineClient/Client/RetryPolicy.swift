public import FleetEngineStatus
public import FleetEngineWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exponential backoff with jitter: the n-th wait (from 0) is `initial × multiplier^n`, capped at
/// `maximum`, then moved at random by up to ± `jitter` of itself so that many clients that failed
/// together do not come back together.
public struct Backoff: Sendable, Hashable {
    /// The first wait.
    public var initial: Duration
    /// How much each wait grows over the one before.
    public var multiplier: Double
    /// The longest wait.
    public var maximum: Duration
    /// The fraction (0…1) by which a wait is moved at random, up or down.
    public var jitter: Double

    /// A backoff from its parts.
    public init(initial: Duration, multiplier: Double, maximum: Duration, jitter: Double = 0.2) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The wait before attempt `retry + 1`, without jitter.
    ///
    /// Worked out in one step rather than one multiplication per retry, so that any retry count
    /// (a connection down for days counts its attempts) is answered at once. A negative duration
    /// counts as zero; a multiplier that leaves no wait (NaN, a negative one, infinity times a zero
    /// first wait) gives the maximum; no wait is longer than `Int64.max` seconds.
    public func nominalDelay(afterRetry retry: Int) -> Duration {
        let maximum = max(maximum.seconds, 0)
        let grown = max(initial.seconds, 0) * pow(multiplier, Double(max(retry, 0)))
        return Self.duration(seconds: grown >= 0 ? min(grown, maximum) : maximum)
    }

    /// The wait before attempt `retry + 1`, with jitter drawn from `generator`.
    ///
    /// A ``jitter`` set outside 0…1 after the backoff was made is taken as the nearest end of
    /// that range, as ``init(initial:multiplier:maximum:jitter:)`` takes it, and NaN as no jitter.
    public func delay(afterRetry retry: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let nominal = nominalDelay(afterRetry: retry).seconds
        let jitter = jitter.isNaN ? 0 : min(max(jitter, 0), 1)
        guard jitter > 0 else { return .seconds(nominal) }
        let factor = Double.random(in: (1 - jitter)...(1 + jitter), using: &generator)
        return Self.duration(seconds: nominal * factor)
    }

    /// `seconds` as a `Duration`, `Int64.max` seconds at most: `Duration.seconds(_:)` traps on a
    /// value it cannot hold, and a maximum near the longest `Duration` can be exceeded by jitter.
    private static func duration(seconds: Double) -> Duration {
        seconds < Double(Int64.max) ? .seconds(seconds) : .seconds(Int64.max)
    }
}

/// Which failed calls are sent again, and how.
///
/// A retry happens only when all hold: the attempt failed with a code this policy retries for the
/// method's kind (or the request is known not to have reached the server at all, which is always
/// safe to send again); the attempts are not used up; the server did not refuse retries
/// (`grpc-retry-pushback-ms` negative or malformed, gRPC's retry design A6); and the wait fits in
/// what is left of the call's deadline. The wait is the server's (`grpc-retry-pushback-ms`, or a
/// `RetryInfo` detail) when it gave one, at most ``maximumServerDelay`` (a minute by default; a
/// longer one is cut, with a warning in the client's log), else the backoff's.
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts a call makes, the first included; 1 turns retries off.
    public var maxAttempts: Int
    /// The waits between attempts.
    public var backoff: Backoff
    /// Codes retried for every method, writes included.
    public var retryableCodes: Set<StatusCode>
    /// Codes retried in addition for reads (GetTrip, SearchTrips), which are safe to repeat.
    public var additionalRetryableCodesForReads: Set<StatusCode>
    /// Methods whose failures are not retried whatever their code; a request known not to have
    /// reached the server is still sent again.
    public var methodsNotRetried: Set<GRPCMethodPath>
    /// The longest wait before a retry that a server's `grpc-retry-pushback-ms` or `RetryInfo` can
    /// ask for; a longer one is cut to this, and the client logs a warning saying so. A minute by
    /// default (``defaultMaximumServerDelay``), the longest wait of trip following's backoff. A
    /// negative one is refused when the client is made.
    public var maximumServerDelay: Duration

    /// The default ``maximumServerDelay``: a minute.
    public static let defaultMaximumServerDelay: Duration = .seconds(60)

    /// A policy from its parts.
    public init(
        maxAttempts: Int,
        backoff: Backoff,
        retryableCodes: Set<StatusCode>,
        additionalRetryableCodesForReads: Set<StatusCode> = [],
        methodsNotRetried: Set<GRPCMethodPath> = [],
        maximumServerDelay: Duration = defaultMaximumServerDelay
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.retryableCodes = retryableCodes
        self.additionalRetryableCodesForReads = additionalRetryableCodesForReads
        self.methodsNotRetried = methodsNotRetried
        self.maximumServerDelay = maximumServerDelay
    }

    /// Google's published policy for Fleet Engine's TripService (5 attempts, 1 s rising ×1.3 to
    /// 10 s, on UNAVAILABLE, for CreateTrip, GetTrip, UpdateTrip and SearchTrips; DeleteTrip and
    /// ReportBillableTrip are not retried, as Google's generated clients leave them without a retry,
    /// so that a trip is not reported for billing twice), extended for reads to the rest of the
    /// server/network family that a server can answer with: ABORTED and CANCELLED.
    /// DEADLINE_EXCEEDED is not retried: the call's own deadline is the limit, and a server-side
    /// deadline would recur.
    public static let fleetEngine = RetryPolicy(
        maxAttempts: 5,
        backoff: Backoff(initial: .seconds(1), multiplier: 1.3, maximum: .seconds(10), jitter: 0.2),
        retryableCodes: [.unavailable],
        additionalRetryableCodesForReads: [.aborted, .cancelled],
        methodsNotRetried: [.deleteTrip, .reportBillableTrip]
    )

    /// No retries at all.
    public static let none = RetryPolicy(
        maxAttempts: 1, backoff: Backoff(initial: .zero, multiplier: 1, maximum: .zero), retryableCodes: [])

    /// Whether an error is retried for `method`, a read or not: never for a method in
    /// ``methodsNotRetried`` unless the request is known not to have reached the server, otherwise
    /// as ``retries(_:isRead:)`` says.
    public func retries(_ error: FleetEngineError, method: GRPCMethodPath, isRead: Bool) -> Bool {
        if methodsNotRetried.contains(method), !error.isSafeToResend { return false }
        return retries(error, isRead: isRead)
    }

    /// Whether an error of this code is retried for a method that is (or is not) a read, whatever
    /// the method (``methodsNotRetried`` is not looked at).
    public func retries(_ error: FleetEngineError, isRead: Bool) -> Bool {
        if error.isSafeToResend { return true }
        let code = error.code.effective
        if retryableCodes.contains(code) { return true }
        return isRead && additionalRetryableCodesForReads.contains(code)
    }
}

extension Backoff {
    /// Refuses a backoff no wait can come of: a negative first or longest wait, a multiplier that
    /// is not a finite number above zero (gRPC's retry design A6 refuses the same in a service
    /// config), a jitter that is NaN.
    ///
    /// - Throws: INVALID_ARGUMENT, refused locally, naming `field` and the value that is wrong.
    func check(field: String) throws(FleetEngineError) {
        let problem: String? =
            if initial < .zero {
                "initial wait \(initial) is negative"
            } else if maximum < .zero {
                "maximum wait \(maximum) is negative"
            } else if !multiplier.isFinite || multiplier <= 0 {
                "multiplier \(multiplier) is not a finite number above zero"
            } else if jitter.isNaN {
                "jitter is NaN"
            } else {
                nil
            }
        guard let problem else { return }
        throw FleetEngineError(code: .invalidArgument, message: "\(field): the backoff's \(problem)", origin: .local)
    }
}

extension RetryPolicy {
    /// Refuses a policy whose backoff cannot be used (``Backoff``'s check) or whose
    /// ``maximumServerDelay`` is negative, naming `field`.
    func check(field: String) throws(FleetEngineError) {
        try backoff.check(field: field + ".backoff")
        guard maximumServerDelay >= .zero else {
            throw FleetEngineError(
                code: .invalidArgument,
                message: "\(field).maximumServerDelay \(maximumServerDelay) is negative", origin: .local)
        }
    }
}

extension FleetEngineError {
    /// Whether the request is known never to have reached the server (a refused stream, a
    /// connection that failed before sending), so sending it again cannot do anything twice. A
    /// local failure (deadline, cancellation, a bad argument) did not reach it either, but sending
    /// it again would fail the same way.
    var isSafeToResend: Bool {
        !requestWasProcessed && origin != .local
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`. Not from `components`, which traps for a duration
    /// of more than `Int64.max` seconds.
    var seconds: Double {
        self / .seconds(1)
    }
}
