/// How many GetTrip calls a ``TripService`` may make per minute, shared by every trip it follows.
///
/// Fleet Engine limits read requests per project: by default 9,000 a minute (150 a second), and
/// past that it answers RESOURCE_EXHAUSTED. A service that follows many trips asks for one call per
/// trip per interval (10,000 trips at 5 s would be 120,000 a minute), so the service spreads its
/// refreshes within the budget instead: when the trips ask for more than it allows, refreshes start
/// evenly at the budget's rate and every trip's interval stretches alike
/// (``TripModel/refreshInterval`` shows what a trip gets): they take turns, first come first served.
/// The first refresh of a newly followed trip and refreshes asked for with ``TripModel/refresh()``
/// go first, but never all the time: one turn in four is kept for the others, so no trip starves.
///
/// A RESOURCE_EXHAUSTED from the server means the project's quota is lower than the budget (or
/// other clients share it): the service halves its rate, pauses for the delay the server asked
/// for (its RetryInfo, at most a minute), and climbs back towards the budget, by a twentieth of it
/// each second, while calls succeed.
///
/// The budget counts one call per refresh: the client's own retries of a refresh (UNAVAILABLE,
/// a refused token) are not counted.
public struct RequestBudget: Sendable, Hashable, CustomStringConvertible {
    /// The calls allowed per minute; nil for no limit.
    public var callsPerMinute: Int?

    /// A budget of `callsPerMinute` calls a minute (at least 1), or none when nil.
    public init(callsPerMinute: Int?) {
        self.callsPerMinute = callsPerMinute.map { max($0, 1) }
    }

    /// Fleet Engine's documented default quota for read requests: 9,000 a minute per project.
    public static let fleetEngineDefault = RequestBudget(callsPerMinute: 9_000)

    /// No limit: every refresh starts when it is due.
    public static let unlimited = RequestBudget(callsPerMinute: nil)

    /// The calls allowed per second, or nil for no limit.
    var callsPerSecond: Double? { callsPerMinute.map { Double($0) / 60 } }

    public var description: String {
        callsPerMinute.map { "\($0) calls per minute" } ?? "unlimited"
    }
}
