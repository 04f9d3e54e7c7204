import Dispatch

/// Runs the jobs of a task that blocks its thread on purpose (a writer waiting on an
/// ``OutputGate``) on a dispatch queue of its own, so that the block holds none of the few threads
/// of Swift's global pool. Tests run side by side, and two that each blocked a pool thread on a
/// two-core machine starved every other test until their waits ran out.
final class BlockingWriterExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        queue.async { unowned.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
