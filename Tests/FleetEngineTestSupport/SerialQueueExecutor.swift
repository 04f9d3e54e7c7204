import Dispatch

/// A task executor on a serial dispatch queue of its own, for a test whose task blocks its thread on
/// purpose (a subscriber or a writer held at a gate): the block then holds none of the few threads
/// of Swift's global pool. Tests run side by side, and two that each blocked a pool thread on a
/// two-core machine starved every other test until their waits ran out.
public final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
