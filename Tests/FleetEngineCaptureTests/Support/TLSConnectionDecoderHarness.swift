@testable import FleetEngineCapture

/// Feeds a ``TLSConnectionDecoder`` the records of both sides of a connection, in the order they
/// were sent, cut into chunks as TCP might deliver them, and collects what it says.
enum TLSConnectionDecoderHarness {
    /// What decoding a connection amounted to.
    struct Outcome {
        /// The application data each side sent, joined.
        var clientPlaintext: [UInt8] = []
        var serverPlaintext: [UInt8] = []
        /// How many plaintext events each side gave.
        var clientPlaintextEvents = 0
        var serverPlaintextEvents = 0
        /// Problems and pass-overs, as code and message, in order.
        var problems: [(code: CaptureError.Code, message: String)] = []
        var passOvers: [(code: CaptureError.Code, message: String)] = []
        /// The decoder after the last bytes.
        var decoder = TLSConnectionDecoder()
    }

    /// The records' bytes in runs: the records one side sent in a row joined, in order.
    static func runs(_ records: [(fromClient: Bool, bytes: [UInt8])]) -> [(fromClient: Bool, bytes: [UInt8])] {
        var runs: [(fromClient: Bool, bytes: [UInt8])] = []
        for record in records {
            if let last = runs.last, last.fromClient == record.fromClient {
                runs[runs.count - 1].bytes += record.bytes
            } else {
                runs.append(record)
            }
        }
        return runs
    }

    /// Decodes `records`, then ends the connection. With no chunk sizes each record is given on
    /// its own; otherwise the runs of records one side sent in a row are cut into chunks of the
    /// sizes, used in turn.
    static func decode(
        _ records: [(fromClient: Bool, bytes: [UInt8])], keyLog: TLSKeyLog, chunkSizes: [Int] = []
    ) -> Outcome {
        var outcome = Outcome()
        var chunks: [(fromClient: Bool, bytes: ArraySlice<UInt8>)] = []
        if chunkSizes.isEmpty {
            chunks = records.map { ($0.fromClient, $0.bytes[...]) }
        } else {
            var sizeIndex = 0
            for run in runs(records) {
                var start = 0
                while start < run.bytes.count {
                    let end = min(run.bytes.count, start + max(1, chunkSizes[sizeIndex % chunkSizes.count]))
                    sizeIndex += 1
                    chunks.append((run.fromClient, run.bytes[start..<end]))
                    start = end
                }
            }
        }
        for chunk in chunks {
            var events: [TLSConnectionDecoder.Event] = []
            outcome.decoder.receive(chunk.bytes, fromClient: chunk.fromClient, keyLog: keyLog, into: &events)
            record(events, into: &outcome)
        }
        var events: [TLSConnectionDecoder.Event] = []
        outcome.decoder.finish(into: &events)
        record(events, into: &outcome)
        return outcome
    }

    /// Adds what the decoder said to `outcome`.
    static func record(_ events: [TLSConnectionDecoder.Event], into outcome: inout Outcome) {
        for event in events {
            switch event {
            case .plaintext(let bytes, let fromClient):
                if fromClient {
                    outcome.clientPlaintext += bytes
                    outcome.clientPlaintextEvents += 1
                } else {
                    outcome.serverPlaintext += bytes
                    outcome.serverPlaintextEvents += 1
                }
            case .problem(let code, let message): outcome.problems.append((code, message))
            case .passOver(let code, let message): outcome.passOvers.append((code, message))
            }
        }
    }
}
