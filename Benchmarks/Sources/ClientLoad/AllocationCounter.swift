import CMallocCounter

/// Counts the process's allocations (every thread) around a piece of work, with the replacement
/// malloc of the CMallocCounter target.
enum AllocationCounter {
    /// The result of `body` and the allocations the process made while it ran.
    static func counting<Result>(_ body: () async throws -> Result) async rethrows -> (Result, Int64) {
        c_malloc_counter_reset()
        c_malloc_counter_start()
        defer { c_malloc_counter_stop() }
        let result = try await body()
        c_malloc_counter_stop()
        return (result, c_malloc_counter_count())
    }
}
