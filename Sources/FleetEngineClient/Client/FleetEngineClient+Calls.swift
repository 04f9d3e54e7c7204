import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Logging
import NIOCore
import NIOHPACK

/// Per-call settings.
public struct CallOptions: Sendable {
    /// How long the call may take, retries included; the configuration's default when nil. A
    /// timeout longer than ``longestTimeout`` is taken as that.
    public var timeout: Duration?
    /// The retry policy for this call; the configuration's when nil. A policy whose backoff
    /// cannot be used fails the call with INVALID_ARGUMENT before anything is sent.
    public var retryPolicy: RetryPolicy?
    /// Extra request metadata (lower-case names; `-bin` names carry base64 values). Names the
    /// call layer writes, `x-goog-request-params`, and `authorization` when the token provider
    /// gave a token, fail the call with INVALID_ARGUMENT before anything is sent.
    public var metadata: [(name: String, value: String)]

    /// The longest a call may be given, 100 years: as good as no deadline, and within what the
    /// clocks that keep deadlines can count.
    public static let longestTimeout: Duration = .seconds(100 * 365 * 86_400)

    /// Options from their parts.
    public init(
        timeout: Duration? = nil, retryPolicy: RetryPolicy? = nil, metadata: [(name: String, value: String)] = []
    ) {
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.metadata = metadata
    }
}

/// What a call is about, for the routing header, the token and the retry decision.
struct CallTarget: Sendable {
    var method: GRPCMethodPath
    var providerID: String
    var tripID: String?
    var isRead: Bool
}

/// The state one unary call keeps between its attempts.
struct UnaryCallState {
    let started: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant
    let policy: RetryPolicy
    /// The framed request message, sent again by every attempt.
    let body: ByteBuffer
    /// Fleet Engine's routing header value.
    let routing: String
    var attempt = 0
    var refreshedToken = false
    var tokenRequest: TokenRequest
    /// The token of the last attempt, which a refresh names as the one refused.
    var sentToken: String?
    /// The first retried attempt of a write that the server may have carried out, which the
    /// call's final error then mentions (a CreateTrip's ALREADY_EXISTS may be its own doing).
    var unsettled: (attempt: Int, error: FleetEngineError)?
    var generator = SystemRandomNumberGenerator()
    /// Cancels the call besides its task's cancellation, when the caller gave one.
    let cancellation: CallCancellation?
}

/// What a unary call does after an attempt failed.
enum AfterFailedAttempt {
    /// Ask the token provider again and send at once (the token was refused).
    case askForNewToken
    /// Send again after this wait.
    case retry(after: Duration)
    /// Fail the call with this error.
    case fail(FleetEngineError)
}

extension FleetEngineClient {
    /// One unary call: token, headers, attempts with retries within the deadline, decoding.
    ///
    /// Only the waits are here (the token, the attempt, the pause before a retry); the rest is done
    /// by synchronous functions kept out of line (``startUnary(_:target:options:cancellation:)``,
    /// ``attemptRequest(_:target:token:options:)``, ``afterFailure(_:pushback:target:state:)``).
    /// An async function's frame is allocated for every call and holds room for all that is inlined
    /// into it: written as one function, this one's was 14 KB, a large malloc per call.
    func unary<Request: ProtobufMessage, Response: ProtobufMessage>(
        _ request: Request,
        target: CallTarget,
        options: CallOptions,
        cancellation: CallCancellation? = nil
    ) async throws(FleetEngineError) -> Response {
        var state = try startUnary(request, target: target, options: options, cancellation: cancellation)
        while true {
            state.attempt += 1
            let outcome: Result<Response, FleetEngineError>
            let pushback: GRPCRetryPushback
            do throws(FleetEngineError) {
                let refused = state.tokenRequest.isRefresh ? state.sentToken : nil
                // A kept token is taken without entering the cache's async path, whose frame
                // would be allocated for every call.
                let token: TokenCache.Issued
                if let kept = tokens.keptToken(for: state.tokenRequest, refused: refused) {
                    token = kept
                } else {
                    let (request, deadline) = (state.tokenRequest, state.deadline)
                    token = try await cancellable(cancellation) { () async throws(FleetEngineError) in
                        try await self.token(for: request, refused: refused, deadline: deadline)
                    }
                }
                let attempt = try attemptRequest(&state, target: target, token: token, options: options)
                (outcome, pushback) = try await attemptCall(
                    attempt, deadline: state.deadline, cancellation: cancellation)
            } catch {
                outcome = .failure(error)
                pushback = .absent
            }
            switch outcome {
            case .success(let response):
                metrics.record(method: target.method, code: .ok, duration: .now - state.started)
                return response
            case .failure(let failure):
                switch afterFailure(failure, pushback: pushback, target: target, state: &state) {
                case .askForNewToken:
                    continue
                case .fail(let error):
                    throw error
                case .retry(let delay):
                    guard await pauseBeforeRetry(delay, cancellation: cancellation) else { throw Self.cancelledError }
                }
            }
        }
    }

    /// The state a unary call starts with: its deadline, its policy (checked) and its framed body.
    @inline(never)
    private func startUnary<Request: ProtobufMessage>(
        _ request: Request, target: CallTarget, options: CallOptions, cancellation: CallCancellation?
    ) throws(FleetEngineError) -> UnaryCallState {
        let started = ContinuousClock.now
        let timeout = min(options.timeout ?? configuration.defaultDeadline, CallOptions.longestTimeout)
        if let policy = options.retryPolicy { try policy.check(field: "CallOptions.retryPolicy") }
        return UnaryCallState(
            started: started,
            deadline: started + timeout,
            policy: options.retryPolicy ?? configuration.retryPolicy,
            body: try Self.framedBody(request.serializedBytes()),
            routing: "provider_id=providers%2F" + Self.percentEncoded(target.providerID),
            tokenRequest: TokenRequest(method: target.method, providerID: target.providerID, tripID: target.tripID),
            cancellation: cancellation)
    }

    /// The request of the next attempt, with `token`.
    @inline(never)
    private func attemptRequest(
        _ state: inout UnaryCallState, target: CallTarget, token: TokenCache.Issued, options: CallOptions
    ) throws(FleetEngineError) -> CallRequest {
        state.sentToken = token.token.value
        let headers = try headers(
            method: target.method, routing: state.routing, token: token, deadline: state.deadline, options: options)
        return CallRequest(
            headers: headers, body: state.body, maxResponseSize: configuration.maxResponseMessageSize,
            authorization: token.header?.field.value)
    }

    /// What follows a failed attempt: a new token once after UNAUTHENTICATED, a retry when the
    /// policy and the deadline allow, else the call's error (with the refused token redacted, and a
    /// note when an earlier attempt of a write may have been carried out).
    @inline(never)
    private func afterFailure(
        _ failure: FleetEngineError, pushback: GRPCRetryPushback, target: CallTarget, state: inout UnaryCallState
    ) -> AfterFailedAttempt {
        // A server may quote the token it refused; it must not reach the caller or a log.
        let error = state.sentToken.flatMap { TokenRedaction(token: $0) }?.apply(to: failure) ?? failure
        // A refused token is asked for again once, as Fleet Engine tokens expire.
        if error.code == .unauthenticated, error.origin != .local, !state.refreshedToken {
            state.refreshedToken = true
            state.tokenRequest.isRefresh = true
            logger.debug("UNAUTHENTICATED; asking for a new token", metadata: ["method": "\(target.method)"])
            return .askForNewToken
        }
        state.tokenRequest.isRefresh = false
        guard
            let delay = retryDelay(
                after: error, attempt: state.attempt, policy: state.policy, pushback: pushback, target: target,
                deadline: state.deadline, cancellation: state.cancellation, generator: &state.generator)
        else {
            metrics.record(method: target.method, code: error.code, duration: .now - state.started)
            logger.debug(
                "call failed",
                metadata: ["method": "\(target.method)", "attempts": "\(state.attempt)", "error": "\(error)"])
            return .fail(Self.noting(state.unsettled, in: error, method: target.method))
        }
        if !target.isRead, error.requestWasProcessed, state.unsettled == nil {
            state.unsettled = (state.attempt, error)
        }
        logger.debug(
            "retrying",
            metadata: [
                "method": "\(target.method)", "attempt": "\(state.attempt)", "delay": "\(delay)", "error": "\(error)",
            ])
        return .retry(after: delay)
    }

    /// `error` with a note when an earlier attempt of this write may have been carried out: the
    /// server answered it with a retryable status, or its answer was lost. A retried CreateTrip
    /// whose first answer was lost can end with ALREADY_EXISTS for the trip it created itself, and
    /// a caller reading only the last attempt's status would take the trip for someone else's.
    static func noting(
        _ earlier: (attempt: Int, error: FleetEngineError)?, in error: FleetEngineError, method: GRPCMethodPath
    ) -> FleetEngineError {
        guard let (attempt, earlierError) = earlier else { return error }
        let what =
            switch earlierError.origin {
            case .connection: "was sent and its answer lost"
            case .streamReset(let code): "was sent and then reset by the server (\(code))"
            default: "ended with \(earlierError.code) (\(earlierError.message))"
            }
        var noted = error
        noted.message += "; attempt \(attempt) of this call \(what), so the server may have carried it out"
        if method == .createTrip, error.code.effective == .alreadyExists {
            noted.message += ": this call itself may have created the trip"
        }
        return noted
    }

    static let cancelledError = FleetEngineError(
        code: .cancelled, message: "the call was cancelled by its caller", origin: .local)

    /// The wait before the next attempt, or nil when the call should fail with `error` now.
    private func retryDelay(
        after error: FleetEngineError,
        attempt: Int,
        policy: RetryPolicy,
        pushback: GRPCRetryPushback,
        target: CallTarget,
        deadline: ContinuousClock.Instant,
        cancellation: CallCancellation?,
        generator: inout SystemRandomNumberGenerator
    ) -> Duration? {
        if Self.isCancelled(cancellation) || pushback == .doNotRetry || manager.isShutDown { return nil }
        // A request known not to have been processed (a refused stream, a connection that failed
        // before sending) is sent again at once, once, whatever the policy: gRPC's transparent retry.
        if error.isSafeToResend, attempt == 1 {
            return ContinuousClock.now < deadline ? .zero : nil
        }
        guard attempt < policy.maxAttempts, policy.retries(error, method: target.method, isRead: target.isRead) else {
            return nil
        }
        let delay: Duration
        if case .after(let serverDelay) = pushback {
            delay = serverDelayWithin(policy, serverDelay, from: "grpc-retry-pushback-ms", method: target.method)
        } else if let serverDelay = error.retryDelay {
            delay = serverDelayWithin(policy, serverDelay, from: "RetryInfo", method: target.method)
        } else {
            delay = policy.backoff.delay(afterRetry: attempt - 1, using: &generator)
        }
        guard ContinuousClock.now + delay < deadline else { return nil }
        return delay
    }

    /// The delay a server asked for (`source` names where), cut to the policy's
    /// ``RetryPolicy/maximumServerDelay`` with a warning in the log: a server, or something posing
    /// as one, must not park a call (and, with a long deadline, its caller) for hours.
    private func serverDelayWithin(
        _ policy: RetryPolicy, _ asked: Duration, from source: String, method: GRPCMethodPath
    ) -> Duration {
        guard asked > policy.maximumServerDelay else { return asked }
        logger.warning(
            "the server's retry delay is longer than the policy allows; waiting the maximum",
            metadata: [
                "method": "\(method)", "source": "\(source)", "asked": "\(asked)",
                "waiting": "\(policy.maximumServerDelay)",
            ])
        return policy.maximumServerDelay
    }

    private func token(
        for request: TokenRequest, refused: String?, deadline: ContinuousClock.Instant
    ) async throws(FleetEngineError) -> TokenCache.Issued {
        do {
            return try await tokens.token(for: request, refused: refused, deadline: deadline)
        } catch let error as FleetEngineError {
            throw error
        } catch {
            // The cache throws CancellationError when this call was cancelled. A provider may throw
            // one of its own while the call is not (its own task group, a timeout of its own): that
            // is the provider's failure, and saying "cancelled by its caller" made reads retry it.
            if error is CancellationError, Task.isCancelled { throw Self.cancelledError }
            throw FleetEngineError(
                code: .unauthenticated,
                message: "the token provider failed: \(error)",
                origin: .local,
                cause: error
            )
        }
    }

    /// One attempt on the current connection.
    private func attemptCall<Response: ProtobufMessage>(
        _ request: CallRequest, deadline: ContinuousClock.Instant, cancellation: CallCancellation?
    ) async throws(FleetEngineError) -> (Result<Response, FleetEngineError>, GRPCRetryPushback) {
        if Self.isCancelled(cancellation) { throw Self.cancelledError }
        let connection: HTTP2Connection
        if let ready = manager.readyConnection() {
            connection = ready
        } else {
            let manager = self.manager
            connection = try await cancellable(cancellation) { () async throws(FleetEngineError) in
                try await manager.connection(deadline: deadline)
            }
        }
        let remaining = deadline - .now
        let nioDeadline = NIODeadline.now() + TimeAmount(max(remaining, .zero))
        let outcome = await connection.call(
            request, deadline: nioDeadline, cancellation: cancellation, cancelledError: Self.cancelledError)
        return attemptResult(outcome)
    }

    /// An attempt's outcome as the call's result: its status's error, or the decoded response.
    @inline(never)
    private func attemptResult<Response: ProtobufMessage>(
        _ outcome: CallAttemptOutcome
    ) -> (Result<Response, FleetEngineError>, GRPCRetryPushback) {
        switch outcome {
        case .failed(let error):
            return (.failure(error), .absent)
        case .ended(let payload, let status, let pushback):
            if let error = status.error { return (.failure(error), pushback) }
            let options = DecodingOptions(
                maxMessageSize: configuration.maxResponseMessageSize,
                maxDecodedSize: configuration.maxDecodedResponseSize)
            return (Self.decode(payload, options: options), pushback)
        }
    }

    private static func decode<Response: ProtobufMessage>(
        _ payload: [UInt8]?, options: DecodingOptions
    ) -> Result<Response, FleetEngineError> {
        guard let payload else {
            return .failure(
                FleetEngineError(
                    code: .internalError,
                    message: "the call ended with status OK but without a response message",
                    origin: .malformedResponse
                ))
        }
        do throws(CodecError) {
            return .success(try Response(serializedBytes: payload, options: options))
        } catch let error where error.code == .resourceExhausted {
            // gRPC fails a message over its receive limit with RESOURCE_EXHAUSTED (statuscodes.md).
            return .failure(
                FleetEngineError(
                    code: .resourceExhausted,
                    message: "the \(Response.protoMessageName) in the response is too large to decode: \(error)",
                    origin: .malformedResponse,
                    cause: error
                ))
        } catch {
            return .failure(
                FleetEngineError(
                    code: .internalError,
                    message: "the \(Response.protoMessageName) in the response does not decode: \(error)",
                    origin: .malformedResponse,
                    cause: error
                ))
        }
    }

    /// The request headers of one attempt (gRPC's PROTOCOL-HTTP2.md, "Requests"), with Fleet
    /// Engine's routing header; the bearer token is added by the connection (``CallRequest``).
    private func headers(
        method: GRPCMethodPath, routing: String, token: TokenCache.Issued, deadline: ContinuousClock.Instant,
        options: CallOptions
    ) throws(FleetEngineError) -> HPACKHeaders {
        let remaining = deadline - .now
        guard remaining > .zero else {
            throw FleetEngineError(
                code: .deadlineExceeded, message: "the call's deadline passed before it could be sent", origin: .local)
        }
        if configurationSendsAuthorization, token.header != nil {
            throw FleetEngineError(
                code: .invalidArgument,
                message: "the configuration's metadata may not carry authorization: the client writes it itself "
                    + "from its token provider",
                origin: .local)
        }
        for field in options.metadata {
            // A second copy of a field the client writes would leave the server to pick one of them.
            let writtenByClient =
                field.name == Self.routingHeaderName || (field.name == "authorization" && token.header != nil)
            if writtenByClient {
                throw FleetEngineError(
                    code: .invalidArgument,
                    message: "the request metadata may not carry \(field.name): the client writes it itself"
                        + (field.name == "authorization" ? " from its token provider" : " from the trip's provider"),
                    origin: .local)
            }
        }
        let head: GRPCRequestHead
        do throws(WireError) {
            var built = requestHeadTemplate
            built.method = method
            built.timeout = GRPCTimeout(remaining)
            try built.appendMetadata(name: Self.routingHeaderName, value: routing)
            for field in options.metadata { try built.appendMetadata(name: field.name, value: field.value) }
            head = built
        } catch {
            // The message names the field, never its value: a value could be a credential.
            throw FleetEngineError(
                code: .invalidArgument, message: "the request metadata is not valid: \(error.code)", origin: .local,
                cause: error)
        }
        var headers = HPACKHeaders()
        headers.reserveCapacity(12)
        for field in head.headerFields {
            // An authorization field of the caller's own (there is no token provider's) is not
            // known to be high in entropy: never indexed (RFC 7541 section 7.1.3). The timeout
            // differs on every call: indexed, each one would push an entry out of the table for a
            // value never sent again.
            let indexing: HPACKIndexing =
                switch field.name {
                case "authorization": .neverIndexed
                case "grpc-timeout": .nonIndexable
                default: .indexable
                }
            headers.add(name: field.name, value: field.value, indexing: indexing)
        }
        return headers
    }

    /// The message with gRPC's 5-byte prefix, uncompressed (the Wire layer's framer), in a buffer
    /// NIO can write.
    private static func framedBody(_ payload: [UInt8]) throws(FleetEngineError) -> ByteBuffer {
        do throws(WireError) {
            return ByteBuffer(bytes: try GRPCMessageFramer().frame(payload, compress: false))
        } catch {
            throw FleetEngineError(
                code: .internalError, message: "the request could not be framed: \(error)", origin: .local, cause: error
            )
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes everything but RFC 3986's unreserved characters, as Google's clients write
    /// routing header values.
    static func percentEncoded(_ text: String) -> String {
        // Project ids are made of unreserved characters only: the text as it is.
        if text.utf8.allSatisfy(isUnreserved) { return text }
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_` and `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
