import FleetTripsInput
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command line run by `/bin/sh -c`, with its standard output and standard error captured and
/// standard input read from `/dev/null`.
///
/// The command runs on a thread of its own, so that however long it takes it never holds one of
/// the concurrency pool's threads. It leads a process group of its own, and cancelling the calling
/// task sends SIGTERM to that whole group: a shell's children (`gcloud ...` in `sh -c`) stop with it,
/// rather than living on holding its output open, which would keep the run waiting for them. (So a
/// terminal's Ctrl-C does not reach the command; one that outlives this process ends at its first
/// write to the closed pipe.)
struct ShellCommand: Sendable {
    /// How much of each output is kept; the rest is read and dropped, so the command never
    /// blocks on a full pipe.
    static let outputLimit = TokenSource.maxTokenBytes

    /// The command line, as `/bin/sh -c` takes it.
    var commandLine: String

    /// How the command ended and what it wrote.
    struct Outcome: Sendable, Hashable {
        /// Standard output, up to ``ShellCommand/outputLimit`` bytes.
        var standardOutput: [UInt8]
        /// Whether standard output went past ``ShellCommand/outputLimit``.
        var standardOutputOverflowed: Bool
        /// Standard error, up to ``ShellCommand/outputLimit`` bytes.
        var standardError: [UInt8]
        /// How the process ended.
        var termination: Termination
    }

    /// How a process ended.
    enum Termination: Sendable, Hashable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// `exited with status 3`, `was killed by signal 9`.
        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// Runs the command to its end.
    ///
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` with the system's reason when the process
    ///   cannot be started or waited for. A command that fails is an ``Outcome``, not an error.
    func run() async throws(FleetTripsError) -> Outcome {
        let child = ChildProcess()
        let commandLine = commandLine
        let result: Result<Outcome, FleetTripsError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: Self.runToEnd(commandLine, child: child))
                }
                thread.start()
            }
        } onCancel: {
            child.terminate()
        }
        return try result.get()
    }

    /// Spawns `/bin/sh -c commandLine`, reads both outputs until they close, and reaps it. Blocks.
    private static func runToEnd(_ commandLine: String, child: ChildProcess) -> Result<Outcome, FleetTripsError> {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard makePipe(&outputPipe), makePipe(&errorPipe) else {
            let failure = Self.failure("cannot create a pipe for it")
            for descriptor in outputPipe + errorPipe where descriptor >= 0 { close(descriptor) }
            return .failure(failure)
        }
        let spawned = spawn(commandLine, standardOutput: outputPipe[1], standardError: errorPipe[1])
        // The child holds its own copies of the write ends; closing ours lets reads end at its exit.
        close(outputPipe[1])
        close(errorPipe[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(outputPipe[0])
            close(errorPipe[0])
            return .failure(error)
        }
        child.started(pid)
        let outputs = readToEnd([outputPipe[0], errorPipe[0]])
        close(outputPipe[0])
        close(errorPipe[0])
        // Wait without reaping first: until the process is reaped its id cannot be reused, so a
        // cancellation that races with its end never signals another process.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        child.ended()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(Self.failure("cannot wait for it to end")) }
        }
        // The wait status layout of POSIX's WIFEXITED/WEXITSTATUS/WTERMSIG, which Swift cannot
        // import as they are macros.
        let termination: Termination =
            status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        return .success(
            Outcome(
                standardOutput: outputs[0].bytes,
                standardOutputOverflowed: outputs[0].overflowed,
                standardError: outputs[1].bytes,
                termination: termination))
    }

    /// A pipe whose ends are closed on exec, so that the command's own children do not keep them
    /// open. (A process another thread spawns between `pipe` and `fcntl` can inherit them; reads
    /// then end when that process exits too.)
    private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    /// Starts `/bin/sh -c commandLine` with standard input from `/dev/null` and its outputs on the
    /// write ends given.
    private static func spawn(
        _ commandLine: String, standardOutput: Int32, standardError: Int32
    ) -> Result<pid_t, FleetTripsError> {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, standardError, STDERR_FILENO)
        // The spawning thread may block signals (Foundation's threads block nearly all), and a child
        // inherits the mask: with SIGTERM blocked, the command could never be stopped. It starts
        // with no signal blocked, and with the default action for those a shell script may rely on.
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t?
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        let signalFlags = resetSignals(in: &attributes)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(signalFlags | POSIX_SPAWN_SETPGROUP))
        let words: [String] = ["/bin/sh", "-c", commandLine]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environ)
        guard result == 0 else {
            return .failure(
                FleetTripsError(
                    code: .unreadableInput, message: "cannot start /bin/sh: " + String(cString: strerror(result))))
        }
        return .success(pid)
    }

    /// Sets `attributes` so that the child starts with no signal blocked and with the default
    /// action for the signals a shell script may rely on; returns the `posix_spawnattr_setflags`
    /// flags that make those settings apply.
    static func resetSignals(in attributes: inout SpawnAttributes) -> Int32 {
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        return POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    }

    #if canImport(Darwin)
        /// `posix_spawnattr_t` as this platform declares it.
        typealias SpawnAttributes = posix_spawnattr_t?
    #else
        /// `posix_spawnattr_t` as this platform declares it.
        typealias SpawnAttributes = posix_spawnattr_t
    #endif

    /// Reads every descriptor until it reports end of file, keeping up to ``outputLimit`` bytes of each.
    private static func readToEnd(_ descriptors: [Int32]) -> [(bytes: [UInt8], overflowed: Bool)] {
        var outputs = descriptors.map { _ in (bytes: [UInt8](), overflowed: false) }
        var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while polled.contains(where: { $0.fd >= 0 }) {
            let ready = poll(&polled, nfds_t(polled.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { buffer in
                    read(polled[index].fd, buffer.baseAddress, buffer.count)
                }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else {
                    // End of file, or an error that no further read would change: stop polling it.
                    polled[index].fd = -1
                    continue
                }
                let room = outputLimit - outputs[index].bytes.count
                outputs[index].bytes += chunk[..<min(count, room)]
                if count > room { outputs[index].overflowed = true }
            }
        }
        return outputs
    }

    private static func failure(_ what: String) -> FleetTripsError {
        FleetTripsError(code: .unreadableInput, message: "\(what): " + String(cString: strerror(errno)))
    }
}

/// The process a ``ShellCommand`` runs, for cancellation: SIGTERM reaches its process group only
/// until the process is reaped, never a later group that happens to get the same id. (Until then
/// its id cannot be reused, as a process's or a group's.)
private final class ChildProcess: Sendable {
    private struct State {
        var pid: pid_t?
        var cancelled = false
        var ended = false
    }

    private let state = Mutex(State())

    /// Records the process; terminates it at once if the task was cancelled before it started.
    func started(_ pid: pid_t) {
        let cancelled = state.withLock { state in
            state.pid = pid
            return state.cancelled
        }
        if cancelled { kill(-pid, SIGTERM) }
    }

    /// Records that the process has been reaped.
    func ended() {
        state.withLock { $0.ended = true }
    }

    /// Sends SIGTERM to the process's group if it is running; remembers to send it at start otherwise.
    func terminate() {
        state.withLock { state in
            state.cancelled = true
            if let pid = state.pid, !state.ended { kill(-pid, SIGTERM) }
        }
    }
}
