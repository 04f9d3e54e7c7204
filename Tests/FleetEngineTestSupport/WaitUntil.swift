/// Waits until `condition` holds, and says whether it does: for a state the test can read but not
/// be told of (a call reaching a server, a timer being set, a child process ending).
///
/// It looks every 10 ms, for at most `limit`: a minute by default, as the whole suite runs at once
/// on two cores and a step that takes a millisecond alone can take seconds there. It never decides
/// anything by how long something took; a test that needs the condition expects `true`. It
/// returns early, with the condition as it then stands, when the task is cancelled.
@discardableResult
public func waitUntil(atMost limit: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
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
