import ClientComparison
import ProcessMeasures

/// A fixed number of callers that each call GetTrip again as soon as the last call returns,
/// until a duration has passed; calls in flight at the end finish and are counted.
///
/// With `onClientExecutor`, the callers' tasks prefer the client's own task executor where it
/// offers one (``GetTripCaller/preferredTaskExecutor``), as ``TripService`` runs its refreshes.
struct ClosedLoop {
    var concurrency: Int
    var duration: Duration
    var onClientExecutor = false

    func run(_ caller: any GetTripCaller) async throws -> LoopSample {
        let cpuBefore = ProcessCPUTime.now()
        let started = ContinuousClock.now
        let end = started + duration
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            let executor = onClientExecutor ? caller.preferredTaskExecutor : nil
            for _ in 0..<concurrency {
                group.addTask(executorPreference: executor) {
                    var latencies: [Duration] = []
                    latencies.reserveCapacity(16_384)
                    var now = ContinuousClock.now
                    while now < end {
                        let issued = now
                        _ = try await caller.getTrip()
                        now = ContinuousClock.now
                        latencies.append(now - issued)
                    }
                    return latencies
                }
            }
            var all: [Duration] = []
            for try await latencies in group { all += latencies }
            return all
        }
        let wall = ContinuousClock.now - started
        let cpu = ProcessCPUTime.now() - cpuBefore
        return LoopSample(wall: wall, cpu: cpu, latencies: latencies)
    }
}

/// What one run of a ``ClosedLoop`` measured.
struct LoopSample {
    /// From the first call issued to the last one answered.
    var wall: Duration
    /// The process's user and system CPU time over the same span.
    var cpu: Duration
    /// Every call's time from issue to decoded response, in no particular order.
    var latencies: [Duration]

    var calls: Int { latencies.count }

    /// The latency that `fraction` of the calls did not exceed (nearest rank).
    func latencyPercentile(_ fraction: Double) -> Duration {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((Double(sorted.count) * fraction).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
