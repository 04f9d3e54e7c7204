import NIOCore

/// A Swift Concurrency task executor that runs its jobs on one NIO event loop: the loop that
/// carries the client's connection.
///
/// A task that prefers this executor (`withTaskExecutorPreference(client.taskExecutor) { ... }`,
/// or `group.addTask(executorPreference: client.taskExecutor)`) runs on the connection's thread:
/// a call it makes writes its request without handing it to another thread, and when the answer
/// arrives the task resumes on the thread that read it, with no wake-up of a thread of Swift's
/// global pool in between. That is how ``TripService`` runs its refreshes. Work that blocks or
/// computes for long does not belong there: it would hold up every call of the client.
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// The loop the jobs run on.
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
