import FleetEngineCodec
import FleetEngineStatus
import FleetEngineWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tokens a client holds, one per method, provider and trip (all that the provider is told
/// besides ``TokenRequest/isRefresh``), each kept until ``refreshMargin`` before it expires.
///
/// A token is checked once, when the provider hands it out, to be a value an `authorization`
/// header can carry: one that cannot is not kept, and fails its call with UNAUTHENTICATED, so the
/// next call asks the provider again instead of failing on the same token until it expires.
final class TokenCache: Sendable {
    /// A token as the cache hands it out.
    struct Issued: Sendable {
        var token: FleetEngineToken
        /// `authorization: Bearer <token>`, checked; nil for an empty token, which is not sent.
        var header: GRPCCheckedMetadataField?
    }

    /// How long before its expiry a token is asked for again.
    static let refreshMargin: Duration = .seconds(60)
    /// The number of tokens kept by default: one per followed trip for consumer tokens, so well
    /// above the trips one service follows.
    static let defaultCapacity = 100_000

    /// Everything in a ``TokenRequest`` that can change the provider's answer, but `isRefresh`
    /// (which ``FetchKey`` adds): a token asked for ReportBillableTrip's billable trip id `X` is not
    /// one for UpdateTrip of trip `X`, and a call takes no token asked for another method.
    ///
    /// Ids compare by their UTF-8 bytes, not as Swift strings: `String` equality is canonical
    /// equivalence, so NFC `"caf\u{E9}"` and NFD `"cafe\u{301}"` were one key, and a token asked
    /// for one trip was sent for another, which the server tells apart by its bytes.
    private struct Key: Hashable {
        var method: GRPCMethodPath
        var providerID: String
        var tripID: String?

        static func == (lhs: Key, rhs: Key) -> Bool {
            guard lhs.method == rhs.method, lhs.providerID.utf8.elementsEqual(rhs.providerID.utf8) else {
                return false
            }
            switch (lhs.tripID, rhs.tripID) {
            case (nil, nil): return true
            case (let left?, let right?): return left.utf8.elementsEqual(right.utf8)
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            Self.combineBytes(of: providerID, into: &hasher)
            hasher.combine(tripID != nil)
            if let tripID { Self.combineBytes(of: tripID, into: &hasher) }
        }

        private static func combineBytes(of text: String, into hasher: inout Hasher) {
            var text = text
            hasher.combine(text.utf8.count)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private struct Entry {
        var issued: Issued
        var expiry: ContinuousClock.Instant?
        /// The provider request it answered, numbered in the order requests were asked: a request
        /// asked earlier that answers later (a plain request overtaken by a refresh) does not
        /// replace it, and a full cache drops the tokens asked for longest ago.
        var fetchID: UInt64

        /// Whether the token is handed out at `now`, rather than asked for again: until
        /// ``TokenCache/refreshMargin`` before its expiry, for ever without one.
        func isFresh(at now: ContinuousClock.Instant) -> Bool {
            expiry.map { now < $0 - TokenCache.refreshMargin } ?? true
        }
    }

    private struct Entries {
        var tokens: [Key: Entry] = [:]
        /// The provider requests under way, each with the calls waiting for it.
        var fetches: [FetchKey: Fetch] = [:]
        var lastID: UInt64 = 0
    }

    /// Which kept token a call takes instead of asking the provider.
    private struct Wanted {
        var isRefresh: Bool
        /// The token whose refusal led to a refresh, if the caller said.
        var refused: String?

        /// A plain request takes a fresh token; a refresh only a fresh one other than the refused.
        func accepts(_ entry: Entry, at now: ContinuousClock.Instant) -> Bool {
            guard entry.isFresh(at: now) else { return false }
            guard isRefresh else { return true }
            return refused.map { entry.issued.token.value != $0 } ?? false
        }
    }

    /// Calls share a provider request when they want the same token, asked for the same way.
    private struct FetchKey: Hashable {
        var key: Key
        var isRefresh: Bool
    }

    /// One request to the provider and the calls waiting for its answer.
    private struct Fetch {
        let id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: UnsafeContinuation<Issued, any Error>] = [:]
    }

    private let provider: any TokenProvider
    private let capacity: Int
    private let entries = Mutex(Entries())

    /// A cache of at most `capacity` tokens: past that, expired ones are dropped, then the oldest
    /// tenth, so that a full cache makes room once per tenth of its size rather than per token.
    init(provider: any TokenProvider, capacity: Int = TokenCache.defaultCapacity) {
        self.provider = provider
        self.capacity = max(1, capacity)
    }

    /// The kept token for `request` while it is good (as ``token(for:refused:deadline:)`` would hand
    /// it out), else nil: the synchronous fast path, so that a call whose token is kept does not
    /// allocate the async function's frame.
    func keptToken(for request: TokenRequest, refused: String?) -> Issued? {
        let key = Key(method: request.method, providerID: request.providerID, tripID: request.tripID)
        let wanted = Wanted(isRefresh: request.isRefresh, refused: refused)
        guard let kept = entries.withLock({ $0.tokens[key] }), wanted.accepts(kept, at: .now) else { return nil }
        return kept.issued
    }

    /// A token for `request`: the cached one while it is good, else a new one from the provider,
    /// which must answer before `deadline` (the call's): a provider that hangs fails the call with
    /// DEADLINE_EXCEEDED rather than holding it forever.
    ///
    /// Calls that want the same token while the provider is being asked for it wait for that one
    /// answer rather than asking again, so that a token expiring under load, or a service starting
    /// many calls at once, costs the provider one request, not one per call. The request is
    /// cancelled when the last call waiting for it gives up (its deadline, its cancellation), so a
    /// provider that hangs is asked afresh by the next call. A refresh (after UNAUTHENTICATED) waits
    /// only for another refresh: a plain request may still hand out the refused token.
    ///
    /// A refresh names the token that was `refused`: when the cache already holds another one (a
    /// refresh for a call refused a moment earlier brought it), that one is handed out rather than
    /// the provider asked again, so calls refused together cost one refresh, not one each.
    func token(
        for request: TokenRequest, refused: String? = nil, deadline: ContinuousClock.Instant
    ) async throws -> Issued {
        if let kept = keptToken(for: request, refused: refused) { return kept }
        let key = Key(method: request.method, providerID: request.providerID, tripID: request.tripID)
        let wanted = Wanted(isRefresh: request.isRefresh, refused: refused)
        let fetchKey = FetchKey(key: key, isRefresh: request.isRefresh)
        return try await withThrowingTaskGroup(of: Issued?.self) { group in
            group.addTask { try await self.wait(for: fetchKey, wanted: wanted, request: request) }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let issued = first else {
                throw FleetEngineError(
                    code: .deadlineExceeded,
                    message: "the token provider did not answer before the call's deadline",
                    origin: .local
                )
            }
            return issued
        }
    }

    /// Waits for the provider's answer to the request for `fetchKey`, asking it if no call is
    /// asking already; cancellation stops the wait at once.
    private func wait(for fetchKey: FetchKey, wanted: Wanted, request: TokenRequest) async throws -> Issued {
        let waiterID = entries.withLock { entries in
            entries.lastID &+= 1
            return entries.lastID
        }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                enum Joined {
                    case cancelled
                    case kept(Issued)
                    case waiting
                    case asking(fetchID: UInt64)
                }
                let joined = entries.withLock { entries -> Joined in
                    // Checked under the lock that `leave` takes, so a cancellation either comes
                    // before this (and is seen here) or finds the waiter registered.
                    if Task.isCancelled { return .cancelled }
                    // Looked at again under the lock that `finish` keeps tokens under: an answer
                    // that came after the caller found no token, and ended its request, is taken
                    // here rather than asked for a second time.
                    if let kept = entries.tokens[fetchKey.key], wanted.accepts(kept, at: .now) {
                        return .kept(kept.issued)
                    }
                    if entries.fetches[fetchKey] != nil {
                        entries.fetches[fetchKey]?.waiters[waiterID] = continuation
                        return .waiting
                    }
                    entries.lastID &+= 1
                    var fetch = Fetch(id: entries.lastID)
                    fetch.waiters[waiterID] = continuation
                    entries.fetches[fetchKey] = fetch
                    return .asking(fetchID: fetch.id)
                }
                switch joined {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .kept(let issued): continuation.resume(returning: issued)
                case .waiting: break
                case .asking(let fetchID): start(fetchID, for: fetchKey, request: request)
                }
            }
        } onCancel: {
            leave(fetchKey, waiterID: waiterID)
        }
    }

    /// Asks the provider for the fetch `fetchID`, and hands its answer to every call waiting.
    private func start(_ fetchID: UInt64, for fetchKey: FetchKey, request: TokenRequest) {
        let provider = self.provider
        let task = Task {
            let outcome: Result<Issued, any Error>
            do {
                outcome = .success(try Self.issue(try await provider.token(for: request)))
            } catch {
                outcome = .failure(error)
            }
            finish(fetchID, for: fetchKey, with: outcome)
        }
        let abandoned = entries.withLock { entries -> Bool in
            guard entries.fetches[fetchKey]?.id == fetchID else { return true }
            entries.fetches[fetchKey]?.task = task
            return false
        }
        // Every waiter left (or the answer came) before the task was recorded.
        if abandoned { task.cancel() }
    }

    /// Keeps a good token, and resumes the calls waiting for fetch `fetchID`.
    private func finish(_ fetchID: UInt64, for fetchKey: FetchKey, with outcome: Result<Issued, any Error>) {
        let now = ContinuousClock.now
        let good = try? outcome.get()
        let expiry = good.flatMap { $0.token.expiration ?? Self.expiryClaim(of: $0.token.value).map { now + $0 } }
        let capacity = self.capacity
        let waiters = entries.withLock { entries -> [UnsafeContinuation<Issued, any Error>] in
            if let good, (entries.tokens[fetchKey.key]?.fetchID ?? 0) < fetchID {
                if entries.tokens[fetchKey.key] == nil, entries.tokens.count >= capacity {
                    Self.evict(&entries.tokens, capacity: capacity, now: now)
                }
                entries.tokens[fetchKey.key] = Entry(issued: good, expiry: expiry, fetchID: fetchID)
            }
            guard entries.fetches[fetchKey]?.id == fetchID else { return [] }
            return entries.fetches.removeValue(forKey: fetchKey).map { Array($0.waiters.values) } ?? []
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// A waiting call gave up: it stops waiting, and when it was the last, the provider's request
    /// is cancelled.
    private func leave(_ fetchKey: FetchKey, waiterID: UInt64) {
        let (waiter, abandoned) = entries.withLock {
            entries -> (UnsafeContinuation<Issued, any Error>?, Task<Void, Never>?) in
            guard let waiter = entries.fetches[fetchKey]?.waiters.removeValue(forKey: waiterID) else {
                return (nil, nil)
            }
            guard entries.fetches[fetchKey]?.waiters.isEmpty == true else { return (waiter, nil) }
            return (waiter, entries.fetches.removeValue(forKey: fetchKey)?.task)
        }
        waiter?.resume(throwing: CancellationError())
        abandoned?.cancel()
    }

    /// The number of calls waiting for the provider.
    var waitingCalls: Int { entries.withLock { $0.fetches.values.reduce(0) { $0 + $1.waiters.count } } }

    /// `token` with its checked header.
    ///
    /// - Throws: UNAUTHENTICATED when the token cannot go in a header (a line break, a byte
    ///   outside printable ASCII, a space at its end); the message says where, never what.
    private static func issue(_ token: FleetEngineToken) throws(FleetEngineError) -> Issued {
        guard !token.value.isEmpty else { return Issued(token: token, header: nil) }
        do throws(WireError) {
            let header = try GRPCCheckedMetadataField(name: "authorization", value: "Bearer " + token.value)
            return Issued(token: token, header: header)
        } catch {
            throw FleetEngineError(
                code: .unauthenticated,
                message: "the token provider handed out a token that cannot be sent: \(error.message)",
                origin: .local,
                cause: error
            )
        }
    }

    /// The number of tokens held.
    var count: Int { entries.withLock { $0.tokens.count } }

    private static func evict(_ tokens: inout [Key: Entry], capacity: Int, now: ContinuousClock.Instant) {
        tokens = tokens.filter { $0.value.expiry.map { now < $0 } ?? true }
        guard tokens.count >= capacity else { return }
        let excess = tokens.count - capacity + 1
        let oldest = tokens.sorted { $0.value.fetchID < $1.value.fetchID }.prefix(max(excess, capacity / 10))
        for (key, _) in oldest { tokens[key] = nil }
    }

    /// How long until the JWT's `exp` claim (RFC 7519 section 4.1.4, seconds since 1970), if the
    /// token is a JWT with one.
    static func expiryClaim(of jwt: String) -> Duration? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = try? Base64.decode(String(parts[1])) else { return nil }
        guard let exp = numberClaim("exp", in: payload) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let wall = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        // A claim a thousand years away is as good as never expiring (and one of 1e21 seconds
        // would not fit in a `Duration`).
        return .seconds(min(max(exp - wall, -Self.farClaim), Self.farClaim))
    }

    /// The furthest an `exp` claim is taken to be from now, in seconds: about a thousand years.
    private static let farClaim = 3.2e10

    /// The number after `"name":` in a small JSON object; enough for `exp`, which is always a
    /// plain number, without a JSON parser in the call path. The name is looked for as a member's
    /// name, one followed by `:`, so a claim whose value is `"exp"` (a subject, a trip id) is passed
    /// over; the number may have a fraction and an exponent (RFC 8259 section 6).
    private static func numberClaim(_ name: String, in json: [UInt8]) -> Double? {
        let key = Array("\"\(name)\"".utf8)
        var index = 0
        while index + key.count <= json.count {
            defer { index += 1 }
            guard json[index..<(index + key.count)].elementsEqual(key) else { continue }
            var cursor = index + key.count
            while cursor < json.count, isJSONSpace(json[cursor]) { cursor += 1 }
            guard cursor < json.count, json[cursor] == UInt8(ascii: ":") else { continue }
            cursor += 1
            while cursor < json.count, isJSONSpace(json[cursor]) { cursor += 1 }
            var end = cursor
            while end < json.count, isNumberByte(json[end]) { end += 1 }
            return Double(String(decoding: json[cursor..<end], as: UTF8.self))
        }
        return nil
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
