import FleetEngineCapture

/// Mallocs per captured message: the whole capture fixture decoded by a new `CaptureDecoder` (as
/// `fleettrips capture` reads a file) and every record printed as a JSON line into one reused
/// buffer, divided by the number of messages. What is spent once per capture or per call (the file
/// header, the connection's HPACK tables, the calls' ends) is shared out over its messages, as it
/// is in a real capture of these calls.
enum CaptureAllocations {
    /// Mallocs per message of `capture`.
    static func perMessage(_ capture: [UInt8]) throws(AllocationGateError) -> Double {
        let operation = GatedOperation.captureMessage
        var output: [UInt8] = []
        let messages = try decode(capture, into: &output)
        guard messages > 0 else { throw AllocationGateError("\(operation.rawValue): the capture holds no messages") }
        let (warmup, iterations) = operation.warmupAndIterations
        let perPass = try MallocMeasurement.perOperation(warmup: warmup, iterations: iterations) {
            () throws(AllocationGateError) in
            output.removeAll(keepingCapacity: true)
            if try decode(capture, into: &output) != messages {
                throw AllocationGateError("\(operation.rawValue): the capture decoded differently in another pass")
            }
        }
        return perPass / Double(messages)
    }

    /// Decodes the whole capture, appends each record's JSON line to `output`, and returns how many
    /// messages it held.
    private static func decode(_ capture: [UInt8], into output: inout [UInt8]) throws(AllocationGateError) -> Int {
        var decoder = CaptureDecoder()
        var records: [CaptureRecord]
        do {
            records = try decoder.decode(capture)
            records += try decoder.finish()
        } catch {
            throw AllocationGateError(
                "\(GatedOperation.captureMessage.rawValue): the capture does not decode: \(error)")
        }
        var messages = 0
        for record in records {
            if case .message = record { messages += 1 }
            record.appendJSONLine(to: &output)
        }
        return messages
    }
}
