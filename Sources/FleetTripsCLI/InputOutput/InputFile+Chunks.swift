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
    ///     there reading stops at the end as without `follow`.
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` with the system's reason, or what `body`
    ///   throws.
    public func readChunks(
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
        while true {
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
