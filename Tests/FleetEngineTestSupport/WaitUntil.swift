/// Waits until `condition` holds, and says whether it does: for a state the test can read but not
/// be told of (a call reaching a server, a timer being set, a child process ending).
///
/// It looks every 10 ms, for at most `limit`: by default as long as a call's deadline in these
/// tests (``LoopbackClient/callDeadline``), as the whole suite runs at once on two cores, and on a
/// loaded machine a task the condition waits for has gone unscheduled for over a minute. The bound
/// only ends a hang: it never decides anything by how long something took, and a test that needs
/// the condition expects `true`. It returns early, with the condition as it then stands, when the
/// task is cancelled.
@discardableResult
public func waitUntil(
    atMost limit: Duration = LoopbackClient.callDeadline, _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !condition() {
        guard clock.now < deadline else { return false }
        do {
            try await Task.sleep(for: .milliseconds(10))
        } catch {
            return condition()
        }
    }
    return true
}
