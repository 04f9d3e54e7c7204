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
/// not taken out: its model sees that its timer id is no longer the current one and ignores it.
final class RefreshTimers: Sendable {
    private struct Entry: Sendable {
        weak var model: TripModel?
        let timerID: UInt64
    }

    /// The granularity of refresh timers, in nanoseconds of the event loop's uptime clock.
    static let tick: UInt64 = 20_000_000

    private let eventLoop: any EventLoop
    private let buckets = Mutex<[UInt64: [Entry]]>([:])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Whether a refresh `remaining` from now is due already: its timer would be rounded to now.
    static func isDue(in remaining: Duration) -> Bool {
        remaining <= .nanoseconds(Int64(tick / 2))
    }

    /// Tells `model` (through ``TripModel/timerFired(_:)``) that timer `timerID` went off, at the
    /// tick nearest `remaining` from now.
    func schedule(_ model: TripModel, timerID: UInt64, in remaining: Duration) {
        let deadline = Self.tickDeadline(in: remaining)
        let isNewBucket = buckets.withLock { buckets -> Bool in
            let entry = Entry(model: model, timerID: timerID)
            if buckets[deadline]?.append(entry) != nil { return false }
            buckets[deadline] = [entry]
            return true
        }
        guard isNewBucket else { return }
        eventLoop.scheduleTask(deadline: .uptimeNanoseconds(deadline)) { () -> Void in
            self.fire(deadline)
        }
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
        let entries = buckets.withLock { $0.removeValue(forKey: deadline) } ?? []
        for entry in entries { entry.model?.timerFired(entry.timerID) }
    }
}
