import FleetEngineCodec

/// Mallocs per decode, encode and JSON printing of one trip, with the codec alone: no I/O, so every
/// run counts the same.
enum CodecAllocations {
    /// Mallocs per `Trip(serializedBytes:)` of `bytes`, the value destroyed after each.
    static func decode(_ bytes: [UInt8], _ operation: GatedOperation) throws(AllocationGateError) -> Double {
        let (warmup, iterations) = operation.warmupAndIterations
        return try MallocMeasurement.perOperation(warmup: warmup, iterations: iterations) {
            () throws(AllocationGateError) in
            let trip = try decoded(bytes, operation)
            // A field is read so that the decoded value is used, not optimized away.
            if trip.name.isEmpty { throw AllocationGateError("\(operation.rawValue): the trip has no name") }
        }
    }

    /// Mallocs per `serializedBytes()` of the trip `bytes` hold.
    static func encode(_ bytes: [UInt8], _ operation: GatedOperation) throws(AllocationGateError) -> Double {
        let trip = try decoded(bytes, operation)
        let (warmup, iterations) = operation.warmupAndIterations
        return try MallocMeasurement.perOperation(warmup: warmup, iterations: iterations) {
            () throws(AllocationGateError) in
            if trip.serializedBytes().count != bytes.count {
                throw AllocationGateError("\(operation.rawValue): encoding does not give back the fixture's bytes")
            }
        }
    }

    /// Mallocs per `jsonUTF8Bytes()` of the trip `bytes` hold.
    static func json(_ bytes: [UInt8], _ operation: GatedOperation) throws(AllocationGateError) -> Double {
        let trip = try decoded(bytes, operation)
        let (warmup, iterations) = operation.warmupAndIterations
        return try MallocMeasurement.perOperation(warmup: warmup, iterations: iterations) {
            () throws(AllocationGateError) in
            let printed: [UInt8]
            do {
                printed = try trip.jsonUTF8Bytes()
            } catch {
                throw AllocationGateError("\(operation.rawValue): the trip does not print as JSON: \(error)")
            }
            if printed.isEmpty { throw AllocationGateError("\(operation.rawValue): printed nothing") }
        }
    }

    private static func decoded(_ bytes: [UInt8], _ operation: GatedOperation) throws(AllocationGateError) -> Trip {
        do {
            return try Trip(serializedBytes: bytes)
        } catch {
            throw AllocationGateError("\(operation.rawValue): the fixture does not decode: \(error)")
        }
    }
}
