import ArgumentParser

/// A command that calls TripService (`get`, `search`, `create`, `update`, `delete`): it writes its
/// result to one sink and a failure to another, so tests run it against buffers and the tool
/// against standard output and standard error.
protocol TripServiceCommand: AsyncParsableCommand {
    /// Runs the command, writing the result to `output` and a failure to `errorOutput`.
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws
}

extension TripServiceCommand {
    /// Runs the command against standard output and standard error.
    func run() async throws {
        var output = StandardOutput()
        var errorOutput = StandardError()
        try await run(output: &output, errorOutput: &errorOutput)
    }
}
