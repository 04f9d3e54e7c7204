import NIOCore
import Synchronization

@testable import JourneySharing

/// A viewer of a session that records each state it receives, read in a task of the test's group.
final class ViewerRecorder: Sendable {
    private let recorded = Mutex<(states: [StateEvent], finished: Bool)>(([], false))
    private let stream: AsyncStream<ByteBuffer>

    /// Opens a viewer on `session` (at once, so the order of openings is the caller's).
    init(_ session: TripSession) {
        stream = session.openViewer()
    }

    /// Reads the states until the stream ends or the task is cancelled (which closes the viewer).
    func consume() async throws {
        for await buffer in stream {
            let state = try StateEvent(buffer)
            recorded.withLock { $0.states.append(state) }
        }
        recorded.withLock { $0.finished = true }
    }

    var states: [StateEvent] { recorded.withLock { $0.states } }
    var seqs: [Int] { states.map(\.seq) }
    /// Whether the stream ended by itself (not by cancellation).
    var finished: Bool { recorded.withLock { $0.finished } }
}

extension StateEvent: @unchecked Sendable {}
