import NIOCore
import Synchronization

/// The timers of the waiting refreshes of one service's models, kept in buckets of
/// ``TripModel/timerTick``: one event-loop timer per bucket, not one per followed trip.
///
/// A refresh is due at a tick (its exact time rounded to the nearest 20 ms), and every refresh due
/// at that tick waits in the same bucket; when the bucket's timer goes off, their models are told,
/// in the order they were added. The buckets of one interval are a few hundred event-loop timers
/// whatever the number of trips, where a timer per trip kept ten thousand in NIO's heap, each
/// with its own task and promise (about 380 bytes per followed trip). A timer that is
/// no longer wanted (a refresh brought forward, an interval changed, following stopped) is not
/// taken out: its model sees that its timer id is no longer the current one and ignores it.
final class RefreshTimers: Sendable {
    private struct Entry: Sendable {
        weak var model: TripModel?
        let timerID: UInt64
    }

    private let eventLoop: any EventLoop
    private let buckets = Mutex<[UInt64: [Entry]]>([:])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Tells `model` (through ``TripModel/timerFired(_:)``) that timer `timerID` went off, at the
    /// tick `deadline` (uptime nanoseconds, a multiple of the tick).
    func schedule(_ model: TripModel, timerID: UInt64, at deadline: UInt64) {
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

    private func fire(_ deadline: UInt64) {
        let entries = buckets.withLock { $0.removeValue(forKey: deadline) } ?? []
        for entry in entries { entry.model?.timerFired(entry.timerID) }
    }
}
