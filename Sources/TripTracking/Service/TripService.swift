public import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
public import Logging
import NIOCore
public import ServiceLifecycle
import Synchronization

/// Follows trips: vends one ``TripModel`` per trip name and runs their refreshes, all over one
/// `FleetEngineClient` — the Consumer SDK's trip service, for a server that follows thousands
/// of trips at once.
///
/// ```swift
/// let service = TripService(client: client, providerID: "my-project")
/// // run() beside the client's run(), e.g. in a ServiceGroup or a task group
/// let model = service.tripModel(for: "trip-42")
/// for try await event in model.updates { print(event.name) }
/// ```
///
/// By default everything a refresh does — its timer, its call, merging the answer and delivering
/// the events to subscribers — runs on the client's `FleetEngineClient.eventLoop`, through its
/// `FleetEngineClient.taskExecutor`: a refresh costs no hand-off between threads, so following
/// thousands of trips costs little CPU. Subscribers are then called on that thread, which also
/// carries every call of the client: a subscriber that blocks or works long holds up all of them.
/// When subscribers (or ``TripProgressMonitor`` listeners) may block, run the refreshes on another
/// executor (`refreshExecutor: globalConcurrentExecutor`): each refresh then hands off between
/// threads (at 10,000 trips every 5 s, 5–14 % more CPU measured, and no more memory:
/// BENCHMARKS.md). An ``TripModel/updates`` consumer runs where its own task runs either way.
/// Refreshes have no task each: they run one after another in worker tasks that ``run()`` adds
/// as refreshes come due together, up to 1,024 at once (past that, due refreshes wait in order).
///
/// The trips share a budget of calls per minute (``RequestBudget``; by default Fleet Engine's
/// default quota, 9,000): when they ask for more, their refreshes are spread within it and every
/// trip's interval stretches alike (``TripModel/refreshInterval``), and a RESOURCE_EXHAUSTED from
/// the server slows them all down further for a while.
///
/// Tokens come from the client's `TokenProvider`, asked per trip (GetTrip names the trip), so
/// consumer tokens work, and so does one server token for all trips: a client made with a
/// `ServiceAccountTokenProvider` mints it from a service account key. The refreshes live in
/// ``run()``: models may be asked for and subscribed to before it runs, and start refreshing once
/// it does. When ``run()`` ends, every model that had not ended stops (``TripModelState/stopped``)
/// and its ``TripModel/updates`` sequences end with CANCELLED.
public final class TripService: Sendable, Service {
    /// The client the trips are fetched with.
    public let client: FleetEngineClient
    /// The provider (`providers/{provider_id}`'s id) trip ids are read against.
    public let providerID: String
    /// The options each new model starts with.
    public let defaultOptions: TripModelOptions
    private let logger: Logger
    private let models = Mutex<[String: TripModel]>([:])
    private let starts = RefreshStarts()
    private let isRunning = Mutex(false)
    let timers: RefreshTimers
    private let admission: RefreshAdmission<RefreshStarts.Start>
    /// Where refreshes run, and so where subscribers are called.
    private let refreshExecutor: any TaskExecutor

    /// A trip service.
    ///
    /// - Parameters:
    ///   - client: the client to fetch with; its `FleetEngineClient.run()` must be running too.
    ///   - providerID: the provider's id (its Cloud project id).
    ///   - defaultOptions: the options new models start with.
    ///   - requestBudget: the GetTrip calls per minute all followed trips share; Fleet Engine's
    ///     default quota, 9,000, by default (``RequestBudget``).
    ///   - logger: where the service logs (failed refreshes at `debug`); nowhere by default.
    ///   - refreshExecutor: where refreshes run, and so where subscribers and progress listeners
    ///     are called; nil (the default) for the client's `FleetEngineClient.taskExecutor`, its
    ///     event loop. Pass `globalConcurrentExecutor` (or an executor of your own) when they may
    ///     block or take long.
    public init(
        client: FleetEngineClient,
        providerID: String,
        defaultOptions: TripModelOptions = TripModelOptions(),
        requestBudget: RequestBudget = .fleetEngineDefault,
        logger: Logger = Logger(label: "trip-service", factory: { _ in SwiftLogNoOpLogHandler() }),
        refreshExecutor: (any TaskExecutor)? = nil
    ) {
        self.client = client
        self.providerID = providerID
        self.defaultOptions = defaultOptions
        self.logger = logger
        self.refreshExecutor = refreshExecutor ?? client.taskExecutor
        self.timers = RefreshTimers(eventLoop: client.eventLoop)
        let starts = self.starts
        self.admission = RefreshAdmission(
            budget: requestBudget, eventLoop: client.eventLoop,
            isWanted: { $0.model.isFollowing(generation: $0.generation) },
            start: { starts.start($0.model, generation: $0.generation) })
    }

    /// The GetTrip calls per minute that all followed trips share (``RequestBudget``). A change
    /// applies at once, to the refreshes waiting for their turn too.
    public var requestBudget: RequestBudget {
        get { admission.budget }
        set { admission.budget = newValue }
    }

    /// The rate refreshes may start at now, in calls per minute: the budget's, or lower while the
    /// server refuses calls with RESOURCE_EXHAUSTED; nil without a budget.
    public var allowedCallsPerMinute: Double? { admission.callsPerMinute }

    /// How many refreshes are due and wait for their turn within the budget.
    public var waitingRefreshCount: Int { admission.waitingCount }

    /// The worker tasks that run the refreshes, busy or idle (for tests).
    var refreshWorkerCount: Int { starts.workerCount }

    /// The full name the service reads `name` as: `name` itself when it is a full name (it holds a
    /// `/`), otherwise `providers/{providerID}/trips/{name}`. Makes no model.
    public func fullName(of name: String) -> String {
        name.contains("/") ? name : "providers/\(providerID)/trips/\(name)"
    }

    /// The model of the trip `name`: a full name (`providers/{provider_id}/trips/{trip_id}`) or a
    /// trip id of this service's provider. The same instance for the same trip every time.
    ///
    /// Names are not checked here: a malformed one, or one of another provider, fails each refresh
    /// with INVALID_ARGUMENT, reported as ``TripEvent/updateFailed(_:)``.
    public func tripModel(for name: String) -> TripModel {
        let fullName = fullName(of: name)
        return models.withLock { models in
            if let model = models[fullName] { return model }
            let model = TripModel(
                name: fullName,
                providerID: providerID,
                options: defaultOptions,
                client: client,
                timers: timers,
                logger: logger,
                admission: admission)
            models[fullName] = model
            return model
        }
    }

    /// Forgets the model of `name` when nobody follows it (it is idle, ended or stopped), so that
    /// a service that follows a stream of trips does not keep them all; the next
    /// ``tripModel(for:)`` for that name makes a new model. Returns whether it was forgotten.
    ///
    /// A forgotten idle model stops (``TripModelState/stopped``): registering on it afterwards is
    /// told so at once, and its ``TripModel/updates`` end with CANCELLED, so that nobody follows
    /// the trip through a model the service no longer knows (and would not stop with itself).
    @discardableResult
    public func forgetTripModel(for name: String) -> Bool {
        let fullName = fullName(of: name)
        return models.withLock { models in
            guard let model = models[fullName], model.stopUnlessFollowed() else { return false }
            models[fullName] = nil
            return true
        }
    }

    /// How many trips are being followed now.
    public var followedTripCount: Int {
        models.withLock { models in models.values.count(where: { $0.modelState == .following }) }
    }

    /// Runs the refreshes of every followed trip until ``beginGracefulShutdown()`` is called (the
    /// refreshes in flight finish, then it returns) or the task is cancelled (at once). As a
    /// `ServiceLifecycle` service, a graceful shutdown of the group stops it gracefully.
    ///
    /// It runs once at a time: called again while it runs, it logs a warning and returns at once,
    /// and the first goes on.
    public func run() async {
        let isOnlyRun = isRunning.withLock { isRunning -> Bool in
            guard !isRunning else { return false }
            isRunning = true
            return true
        }
        guard isOnlyRun else {
            logger.warning("TripService.run() called while it runs; this call returns at once")
            return
        }
        defer { isRunning.withLock { $0 = false } }
        await withGracefulShutdownHandler {
            // The loop that takes the starts and the refreshes it adds prefer the refresh
            // executor. By default that is the client's event loop: a timer fires there, the
            // call's answer is read there, and the refresh goes on there without waking another
            // thread.
            await withTaskExecutorPreference(refreshExecutor) {
                await withDiscardingTaskGroup { group in
                    // Refreshes run in workers, one after another (``RefreshStarts``), not in a
                    // task each; a worker is added when a start finds none idle.
                    for await _ in starts.workerRequests {
                        group.addTask {
                            while let start = await self.starts.next() {
                                await start.model.follow(generation: start.generation)
                            }
                        }
                    }
                    // Cancelled, or stopped: the idle workers end, the busy ones after their refresh.
                    starts.close()
                }
            }
        } onGracefulShutdown: {
            self.beginGracefulShutdown()
        }
        stopAll()
    }

    /// Stops following every trip: models stop, their sequences end with CANCELLED, and ``run()``
    /// returns once the refreshes in flight have finished.
    public func beginGracefulShutdown() {
        if starts.close() { stopAll() }
    }

    private func stopAll() {
        starts.close()
        let all = models.withLock { Array($0.values) }
        for model in all { model.stop() }
    }
}
