/// The GetTrip of a refresh, while it is in flight: the refresh's task, to cancel when its following
/// ends (the last listener left, the service stopped, the model was stopped), so that the call and
/// the client's retries stop at once, as fetching stops in the Consumer SDK when nobody listens.
///
/// Each refresh already runs as a task of its own (a child of ``TripService/run()``'s group), so
/// cancelling that task cancels the call through the client's own cancellation path: no second
/// task races the call to learn that following ended, and a refresh costs no task group.
///
/// The handle is the refresh task's `UnsafeCurrentTask`, kept beyond `withUnsafeCurrentTask`'s
/// closure. That is sound here: the handle holds a strong reference to the task, and only
/// `cancel()` is ever called on it, which `Task` offers too and which is safe from any thread, on a
/// task that is running or has finished alike. The model registers the handle under its lock
/// before the call and takes it out under the same lock when the call returns, so a cancellation
/// reaches only a refresh that is still waiting for its call.
struct CallInFlight: @unchecked Sendable {
    private let task: UnsafeCurrentTask

    /// The current task's call, or nil outside a task.
    static func current() -> CallInFlight? {
        withUnsafeCurrentTask { task in task.map { CallInFlight(task: $0) } }
    }

    /// Whether `other` is this call (the same task).
    func isSame(as other: CallInFlight) -> Bool { task == other.task }

    /// Cancels the refresh's task, and so its call.
    func cancel() { task.cancel() }
}
