import FleetEngineCapture

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The progress line `fleettrips capture` keeps on a terminal's standard error while it decodes:
/// bytes read (of the input's size, when known), messages decoded and the rate.
///
/// It costs decoding nothing that can be measured: the command tells it about each chunk it read
/// (a megabyte of a file) and each batch of records it decoded, and only then does it read the
/// monotonic clock (no system call) and, at most every ``interval``, write one line. It is drawn
/// first only after ``interval``, so a small capture never shows it. The line is rewritten in place
/// (`\r`, then erase to the end of the line) and erased before a note is written to standard
/// error and when decoding ends, on success or failure, so standard error keeps only the notes
/// and the error; standard output is never touched. A write to the terminal that fails is let
/// go: progress must never end the decoding.
final class CaptureProgress {
    /// The shortest time between two redraws: a few a second.
    static let interval = Duration.milliseconds(250)
    /// The bytes that erase the line: back to its start, then erase to its end (ECMA-48's EL).
    static let erase: [UInt8] = Array("\r\u{1B}[K".utf8)

    private var terminal: any ByteSink
    /// The input's size in bytes; nil when it is not known (a pipe, a file that may grow).
    let totalBytes: Int64?
    /// The bytes read so far.
    private(set) var bytesRead: Int64 = 0
    /// The messages decoded so far, before any filter.
    private(set) var messages = 0
    private let start: ContinuousClock.Instant
    private var nextDraw: ContinuousClock.Instant
    private var isDrawn = false
    private var isFinished = false

    /// Progress drawn on `terminal` for an input of `totalBytes` (nil when unknown), starting at
    /// `start`.
    init(terminal: some ByteSink, totalBytes: Int64?, start: ContinuousClock.Instant = .now) {
        self.terminal = terminal
        self.totalBytes = totalBytes
        self.start = start
        self.nextDraw = start + Self.interval
    }

    /// Progress on standard error for `command`, or nil when it is not shown
    /// (``isShown(noProgress:summary:standardErrorIsTerminal:standardOutputIsTerminal:)``).
    static func standardError(for command: CaptureCommand) -> CaptureProgress? {
        let shown = isShown(
            noProgress: command.noProgress, summary: command.summary,
            standardErrorIsTerminal: isatty(STDERR_FILENO) == 1, standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1)
        guard shown else { return nil }
        let files = [command.file] + (command.serverFile.map { [$0] } ?? [])
        return CaptureProgress(
            terminal: StandardError(), totalBytes: command.follow ? nil : totalSize(of: files.map(InputFile.init)))
    }

    /// Whether progress is shown: only on a terminal's standard error, never with `--no-progress`,
    /// and not while records go to a terminal too (unless `--summary` holds them back), where the
    /// two would break each other's lines and the records themselves show the progress.
    static func isShown(
        noProgress: Bool, summary: Bool, standardErrorIsTerminal: Bool, standardOutputIsTerminal: Bool
    ) -> Bool {
        !noProgress && standardErrorIsTerminal && (summary || !standardOutputIsTerminal)
    }

    /// The sum of the sizes of `inputs`; nil when any is not a regular file (a pipe, a terminal),
    /// whose size is not known before its end.
    static func totalSize(of inputs: [InputFile]) -> Int64? {
        var total: Int64 = 0
        for input in inputs {
            var status = stat()
            let found = input.isStandardInput ? fstat(STDIN_FILENO, &status) : stat(input.path, &status)
            guard found == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            total += Int64(status.st_size)
        }
        return total
    }

    /// Counts `count` more bytes read.
    func read(_ count: Int) {
        bytesRead += Int64(count)
    }

    /// Counts the messages among `records` and redraws the line when ``interval`` has passed since
    /// the last time.
    func decoded(_ records: [CaptureRecord], at now: ContinuousClock.Instant = .now) {
        for case .message in records { messages += 1 }
        guard now >= nextDraw, !isFinished else { return }
        nextDraw = now + Self.interval
        let line = Self.line(bytesRead: bytesRead, totalBytes: totalBytes, messages: messages, elapsed: now - start)
        isDrawn = true
        try? terminal.write(Array(("\r" + line).utf8) + Self.erase.dropFirst())
    }

    /// Erases the line, if drawn, so that something else can be written to the terminal; the
    /// next redraw draws it again.
    func clear() {
        guard isDrawn else { return }
        isDrawn = false
        try? terminal.write(Self.erase)
    }

    /// Erases the line for good: decoding has ended.
    func finish() {
        clear()
        isFinished = true
    }
}
