import FleetEngineClient

/// The GetTrip of a refresh, while it is in flight: cancelled when its following ends (the last
/// listener left, the service stopped, the model was stopped), so that the call and the client's
/// retries stop at once, as fetching stops in the Consumer SDK when nobody listens.
///
/// Refreshes run in the trip service's worker tasks, one refresh after another in each
/// (``RefreshStarts``), so cancelling the task would end the worker, not the one call: the call
/// carries a `CallCancellation` of its own instead, which the client honours as it does its task's
/// cancellation. The model registers the call under its lock before it goes out and takes it out
/// under the same lock when it returns, so a cancellation reaches only a refresh still waiting for
/// its call.
struct CallInFlight: Sendable {
    let cancellation = CallCancellation()

    /// Whether `other` is this call.
    func isSame(as other: CallInFlight) -> Bool { cancellation === other.cancellation }

    /// Whether the call was cancelled.
    var isCancelled: Bool { cancellation.isCancelled }

    /// Cancels the call.
    func cancel() { cancellation.cancel() }
}
