import FleetTripsInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension InputFile {
    /// Reads the input in chunks of up to `chunkSize` bytes, handing each to `body` as it arrives,
    /// so that input of any size streams through in bounded memory.
    ///
    /// - Parameters:
    ///   - follow: at the end of the input, wait for more (a file still being written, e.g. by
    ///     `tcpdump -w`), checking every 200 ms, until no byte arrived for `idleLimit` (forever when
    ///     nil). Only a regular file can grow: the end of a pipe, socket or terminal is final, so
    ///     there reading stops at the end as without `follow`; but a pipe whose writer is still
    ///     there and sends nothing for `idleLimit` is taken to have ended too.
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` with the system's reason, or what `body`
    ///   throws.
    func readChunks(
        chunkSize: Int = 1 << 20, follow: Bool = false, idleLimit: Duration? = nil,
        _ body: (ArraySlice<UInt8>) throws -> Void
    ) throws {
        let descriptor: Int32 = isStandardInput ? STDIN_FILENO : open(path, O_RDONLY)
        guard descriptor >= 0 else { throw chunkFailure("cannot open") }
        defer { if !isStandardInput { close(descriptor) } }
        // A pipe reports its end only once every writer has closed it; waiting on would never end.
        let canGrow = follow && Self.isRegularFile(descriptor)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var idle = Duration.zero
        // A read of a pipe blocks until bytes come, which the idle limit must be able to cut short.
        let idleWaitLimit = follow && !canGrow ? idleLimit : nil
        while true {
            if let idleWaitLimit, !Self.waitForInput(descriptor, upTo: idleWaitLimit) { return }
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw chunkFailure("cannot read")
            }
            if count == 0 {
                guard canGrow else { return }
                if let idleLimit, idle >= idleLimit { return }
                usleep(200_000)
                idle += .milliseconds(200)
                continue
            }
            idle = .zero
            try body(chunk[..<count])
        }
    }

    /// Waits until reading `descriptor` would not block (bytes, its end, or an error to report),
    /// for at most `limit`; false when it stayed quiet that long.
    private static func waitForInput(_ descriptor: Int32, upTo limit: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            let remaining = (deadline - clock.now) / .milliseconds(1)
            let timeout = Int32(clamping: Int64(max(0, remaining.rounded(.up))))
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 { return true }
            if ready == 0 { return false }
            // Interrupted: wait out the rest; any other failure is for read() to report.
            if errno != EINTR { return true }
        }
    }

    /// Whether `descriptor` is a regular file, the only kind of input that can grow after its end.
    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG
    }

    private func chunkFailure(_ what: String) -> FleetTripsError {
        FleetTripsError(
            code: .unreadableInput,
            message: "\(what) \(displayName): " + String(cString: strerror(errno)))
    }
}
