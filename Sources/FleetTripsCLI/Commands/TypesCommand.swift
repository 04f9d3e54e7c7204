import ArgumentParser
import FleetEngineCodec

/// `fleettrips types`: the message type names `--type` accepts.
struct TypesCommand: AsyncParsableCommand {
    /// The command's name, help text and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the message types that --type accepts, one full name per line."
    )

    /// Only names containing this text, in any case.
    @Argument(help: "List only the names that contain this text (any case).")
    var filter: String?

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// The names this command lists, sorted.
    func names() -> [String] {
        let all = MessageRegistry.allMessageTypes.map { $0.protoMessageName }
        guard let filter, !filter.isEmpty else { return all }
        return all.filter { $0.lowercased().contains(filter.lowercased()) }
    }

    /// Writes the names, one per line, to `output`.
    func run(output: inout some ByteSink) throws {
        try output.write(Array(names().map { $0 + "\n" }.joined().utf8))
    }

    /// Runs the command on its input, writing to standard output.
    func run() async throws {
        var output = StandardOutput()
        try run(output: &output)
    }
}
