import NIOCore
import Synchronization

/// The timers of the waiting refreshes of one service's models, kept in buckets of ``tick``: one
/// event-loop timer per bucket, not one per followed trip.
///
/// A refresh is due at a tick (its exact time rounded to the nearest 20 ms), and every refresh due
/// at that tick waits in the same bucket; when the bucket's timer goes off, their models are told,
/// in the order they were added. The refreshes of one tick start together, in one turn of the
/// event loop: their requests leave in one write, their answers tend to arrive in one read, and the
/// loop wakes once for them all. A refresh moves by at most half a tick, 10 ms in a 5 s interval,
/// and the intervals keep their length on average. The buckets of one interval are a few hundred
/// event-loop timers whatever the number of trips, where a timer per trip kept ten thousand in
/// NIO's heap, each with its own task and promise (about 380 bytes per followed trip). A timer
/// that is no longer wanted (a refresh brought forward, an interval changed, following stopped) is
/// taken out of its bucket, and a bucket left empty cancels its event-loop timer: left in, each
/// would be kept until its time came, which for a trip refreshed on demand with an interval of
/// centuries is never, one more with every refresh.
final class RefreshTimers: Sendable {
    /// A timer that is set: its id, unique in the service, and its bucket.
    struct Timer: Sendable, Hashable {
        let id: UInt64
        let deadline: UInt64
    }

    private struct Entry: Sendable {
        weak var model: TripModel?
        let timerID: UInt64
    }

    private struct Bucket: Sendable {
        var entries: [Entry]
        let scheduled: Scheduled<Void>
    }

    private struct Buckets: Sendable {
        var byDeadline: [UInt64: Bucket] = [:]
        var lastTimerID: UInt64 = 0
    }

    /// The granularity of refresh timers, in nanoseconds of the event loop's uptime clock.
    static let tick: UInt64 = 20_000_000

    private let eventLoop: any EventLoop
    private let buckets = Mutex(Buckets())

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Whether a refresh `remaining` from now is due already: its timer would be rounded to now.
    static func isDue(in remaining: Duration) -> Bool {
        remaining <= .nanoseconds(Int64(tick / 2))
    }

    /// Sets a timer that tells `model` (through ``TripModel/timerFired(_:)``, with the timer's id)
    /// that it went off, at the tick nearest `remaining` from now.
    func schedule(_ model: TripModel, in remaining: Duration) -> Timer {
        let deadline = Self.tickDeadline(in: remaining)
        return buckets.withLock { buckets in
            buckets.lastTimerID &+= 1
            let entry = Entry(model: model, timerID: buckets.lastTimerID)
            if buckets.byDeadline[deadline]?.entries.append(entry) == nil {
                // Scheduling calls nothing of ours, so it can happen under the lock, which keeps a
                // bucket and its event-loop timer together.
                let scheduled = eventLoop.scheduleTask(deadline: .uptimeNanoseconds(deadline)) { () -> Void in
                    self.fire(deadline)
                }
                buckets.byDeadline[deadline] = Bucket(entries: [entry], scheduled: scheduled)
            }
            return Timer(id: entry.timerID, deadline: deadline)
        }
    }

    /// Takes `timer` out, when it has not gone off yet.
    func cancel(_ timer: Timer) {
        let emptied = buckets.withLock { buckets -> Scheduled<Void>? in
            buckets.byDeadline[timer.deadline]?.entries.removeAll { $0.timerID == timer.id }
            guard let bucket = buckets.byDeadline[timer.deadline], bucket.entries.isEmpty else { return nil }
            buckets.byDeadline[timer.deadline] = nil
            return bucket.scheduled
        }
        emptied?.cancel()
    }

    /// How many refreshes wait for their timers.
    var pendingCount: Int {
        buckets.withLock { $0.byDeadline.values.reduce(0) { $0 + $1.entries.count } }
    }

    /// The tick nearest `remaining` from now, in uptime nanoseconds.
    private static func tickDeadline(in remaining: Duration) -> UInt64 {
        // NIO's conversion saturates at about 292 years: an interval meant as "never" does not
        // overflow.
        let nanoseconds = UInt64(max(0, TimeAmount(remaining).nanoseconds))
        let exact = NIODeadline.now().uptimeNanoseconds + nanoseconds
        return (exact + tick / 2) / tick * tick
    }

    private func fire(_ deadline: UInt64) {
        let entries = buckets.withLock { $0.byDeadline.removeValue(forKey: deadline)?.entries } ?? []
        for entry in entries { entry.model?.timerFired(entry.timerID) }
    }
}
