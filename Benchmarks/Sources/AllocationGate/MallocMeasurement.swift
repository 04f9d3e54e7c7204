import CMallocCounter

/// Mallocs per operation, counted for the whole process (every thread) by the replacement malloc of
/// the CMallocCounter target.
///
/// Every measurement runs its operation a number of times first, unmeasured, so that what is
/// allocated once (caches, lazily made globals, buffers that grow to their working size, the
/// connection of a client) is not charged to the operations measured afterwards.
enum MallocMeasurement {
    /// Mallocs per call of `operation`, averaged over `iterations` calls after `warmup` calls.
    static func perOperation(
        warmup: Int,
        iterations: Int,
        _ operation: () throws(AllocationGateError) -> Void
    ) throws(AllocationGateError) -> Double {
        for _ in 0..<warmup { try operation() }
        c_malloc_counter_reset()
        c_malloc_counter_start()
        defer { c_malloc_counter_stop() }
        for _ in 0..<iterations { try operation() }
        c_malloc_counter_stop()
        return Double(c_malloc_counter_count()) / Double(iterations)
    }

    /// Mallocs per call of an asynchronous `operation`, averaged over `iterations` calls after
    /// `warmup` calls. What other threads of the process allocate meanwhile counts too, which is
    /// the point for a client whose work happens on its event loop.
    static func perOperation(
        warmup: Int,
        iterations: Int,
        _ operation: () async throws(AllocationGateError) -> Void
    ) async throws(AllocationGateError) -> Double {
        for _ in 0..<warmup { try await operation() }
        c_malloc_counter_reset()
        c_malloc_counter_start()
        defer { c_malloc_counter_stop() }
        for _ in 0..<iterations { try await operation() }
        c_malloc_counter_stop()
        return Double(c_malloc_counter_count()) / Double(iterations)
    }

    /// Whether this platform counts at all: only Linux with glibc replaces malloc, elsewhere every
    /// count would read zero and pass every gate.
    static var isCounting: Bool {
        c_malloc_counter_reset()
        c_malloc_counter_start()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        c_malloc_counter_stop()
        probe.deallocate()
        return c_malloc_counter_count() > 0
    }
}
