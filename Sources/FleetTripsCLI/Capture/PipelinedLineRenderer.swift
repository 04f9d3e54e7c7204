import Dispatch
import FleetEngineCapture

/// Renders capture records as JSON lines on other threads while the caller decodes the next
/// input, so that printing every message in full (most of the work) runs beside reading the
/// capture and batches render in parallel; the lines come back in the order the records were
/// submitted, and the caller writes them.
///
/// At most a few batches are in flight, so memory stays bounded however large the capture.
final class PipelinedLineRenderer {
    /// One submitted batch: its lines, written by the render queue before `ready` is signalled.
    private final class Batch: @unchecked Sendable {
        // @unchecked: `lines` is written on the render queue before `ready` is signalled, and read
        // by the submitting thread only after it waited for `ready`.
        var lines: [UInt8] = []
        let ready = DispatchSemaphore(value: 0)
    }

    private let queue = DispatchQueue(label: "fleettrips.capture.render", attributes: .concurrent)
    private var pending: [Batch] = []
    private let maxPending = 6

    /// Starts rendering `records`; writes, through `write`, the lines of earlier batches that are
    /// done (waiting for the oldest when too many are in flight).
    func submit(_ records: [CaptureRecord], write: ([UInt8]) throws -> Void) rethrows {
        guard !records.isEmpty else { return }
        let batch = Batch()
        queue.async {
            var lines: [UInt8] = []
            // Room for the lines at once: a message's JSON is about three times its binary size.
            lines.reserveCapacity(records.reduce(0) { $0 + $1.expectedJSONLineLength })
            for record in records { record.appendJSONLine(to: &lines) }
            batch.lines = lines
            batch.ready.signal()
        }
        pending.append(batch)
        while pending.count > maxPending { try writeOldest(write) }
        while let oldest = pending.first, oldest.ready.wait(timeout: .now()) == .success {
            pending.removeFirst()
            try write(oldest.lines)
        }
    }

    /// Waits for every batch in flight and writes their lines, in order.
    func finish(write: ([UInt8]) throws -> Void) rethrows {
        while !pending.isEmpty { try writeOldest(write) }
    }

    private func writeOldest(_ write: ([UInt8]) throws -> Void) rethrows {
        let oldest = pending.removeFirst()
        oldest.ready.wait()
        try write(oldest.lines)
    }
}

extension CaptureRecord {
    /// About how long this record's line will be, to size buffers.
    fileprivate var expectedJSONLineLength: Int {
        if case .message(let message) = self { return 256 + message.payload.count * 3 }
        return 256
    }
}
