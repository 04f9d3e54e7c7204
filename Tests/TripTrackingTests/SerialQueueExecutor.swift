import Dispatch

/// A task executor on a serial dispatch queue of its own: a subscriber that blocks while it runs
/// there blocks none of the few threads of Swift's global pool, which tests running side by side
/// all need.
final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
