import Foundation

@testable import FleetTripsCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `fleettrips serve --no-auth --data DIR` running as a child process on 127.0.0.1,
/// optionally under a file-size limit (`ulimit -f`), so that its journal's writes fail as they do
/// on a full disk without limiting this process's own files.
///
/// `/bin/sh` sets the limit, ignores SIGXFSZ (a write past the limit then returns a short count or
/// EFBIG rather than killing the server; an ignored signal stays ignored across `exec`) and starts
/// the server; when its standard input closes (``stop()``, or this process ending) it stops the
/// server with SIGTERM, a graceful shutdown, and exits with the server's status. Spawned with
/// `posix_spawn` and pipes closed on exec, so that a server another test starts at the same time
/// cannot hold this one's standard input open.
final class ServeProcess: Sendable {
    /// The port the server listens on.
    let port: Int
    private let shell: pid_t
    /// The write end of the shell's standard input; closing it stops the server.
    private let input: Int32
    private let errorOutputPath: String

    /// How a stopped server ended and what it wrote to standard error.
    struct Ending: Sendable {
        /// The server's exit status (128 plus the signal's number when a signal ended it).
        var status: Int32
        var errorOutput: String
    }

    /// Why a server could not be started, with what it wrote to standard error.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Starts the server on `dataDirectory`, with files limited to `fileSizeLimitBlocks` blocks of
    /// 512 bytes (dash's `ulimit -f` unit) if given, and waits until it listens. Blocks.
    ///
    /// - Throws: ``Failure`` with the server's standard error when it exits before listening.
    init(dataDirectory: String, fileSizeLimitBlocks: Int?) throws {
        let limit = fileSizeLimitBlocks.map { "ulimit -f \($0); trap '' XFSZ; " } ?? ""
        // The shell lets go of standard output, so that it ends when the server does; the server's
        // standard input is /dev/null (a background job's), the shell's is the pipe.
        let script =
            limit
            + #""$0" serve --no-auth --data "$1" & server=$!; exec >/dev/null; read line; kill -TERM $server; "#
            + "wait $server"
        errorOutputPath = dataDirectory + ".stderr"
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&inputPipe), Self.makePipe(&outputPipe) else {
            for descriptor in inputPipe + outputPipe where descriptor >= 0 { close(descriptor) }
            throw Failure(message: "cannot create a pipe for fleettrips serve: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(
            &actions, STDERR_FILENO, errorOutputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The spawning thread may block signals (Foundation's threads block nearly all) and a child
        // inherits the mask: with SIGTERM blocked, the server could not be stopped.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(ShellCommand.resetSignals(in: &attributes)))
        let words = ["/bin/sh", "-c", script, try Self.executablePath(), dataDirectory]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        close(inputPipe[0])
        close(outputPipe[1])
        guard spawned == 0 else {
            close(inputPipe[1])
            close(outputPipe[0])
            throw Failure(message: "cannot start /bin/sh: \(String(cString: strerror(spawned)))")
        }
        shell = pid
        input = inputPipe[1]
        // The first line is `listening on 127.0.0.1:PORT`; nothing, if the server could not start.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.last != UInt8(ascii: "\n"), line.count < 200 {
            let count = read(outputPipe[0], &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { break }
            line.append(byte)
        }
        close(outputPipe[0])
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on 127.0.0.1:"), let port = Int(text.dropFirst(23)) else {
            port = 0
            let ending = stop()
            throw Failure(
                message: "fleettrips serve did not start (status \(ending.status)); it printed \"\(text)\" "
                    + "and \"\(ending.errorOutput)\"")
        }
        self.port = port
    }

    /// Stops the server with SIGTERM and waits for it to exit. Blocks.
    func stop() -> Ending {
        close(input)
        var status: Int32 = 0
        while waitpid(shell, &status, 0) < 0, errno == EINTR {}
        let errorOutput = (try? String(contentsOfFile: errorOutputPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: errorOutputPath)
        // The wait status layout of WIFEXITED/WEXITSTATUS, macros Swift cannot import.
        return Ending(status: status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f, errorOutput: errorOutput)
    }

    /// A pipe whose ends are closed on exec, so that no other child inherits them. (One that another
    /// thread spawns between `pipe` and `fcntl` can; then only that child's end ends the wait.)
    private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    /// The built `fleettrips` executable: beside the test executable (Linux), or in one of the
    /// folders that hold its bundle (macOS).
    static func executablePath() throws -> String {
        let testExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testExecutable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("fleettrips").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        throw Failure(message: "no built fleettrips near \(testExecutable.path); build the package's products first")
    }

    /// Runs `body` with a server on `dataDirectory` (see ``init(dataDirectory:fileSizeLimitBlocks:)``),
    /// stops the server, and returns what `body` returned and how the server ended. Starting and
    /// stopping block, so they run on a thread of their own, never on the concurrency pool.
    static func with<Value: Sendable>(
        dataDirectory: String, fileSizeLimitBlocks: Int? = nil, _ body: (Int) async throws -> Value
    ) async throws -> (Value, Ending) {
        let server = try await onOwnThread {
            try ServeProcess(dataDirectory: dataDirectory, fileSizeLimitBlocks: fileSizeLimitBlocks)
        }
        let result: Value
        do {
            result = try await body(server.port)
        } catch {
            _ = try? await onOwnThread { server.stop() }
            throw error
        }
        return (result, try await onOwnThread { server.stop() })
    }

    private static func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
