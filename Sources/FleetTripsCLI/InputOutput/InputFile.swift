import FleetTripsInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command's input: a file named on the command line, or standard input for `-`.
struct InputFile: Hashable, Sendable {
    /// The path as given; `-` means standard input.
    var path: String

    /// The input at `path`; `-` means standard input.
    init(path: String) {
        self.path = path
    }

    /// Whether this is standard input.
    var isStandardInput: Bool { path == "-" }

    /// How the input is named in messages: its path, or "standard input".
    var displayName: String { isStandardInput ? "standard input" : "'\(path)'" }

    /// Reads the whole input, or its first `limit + 1` bytes when it is longer than `limit`: a
    /// caller that has a bound learns the input is over it without holding all of it.
    ///
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` with the system's reason.
    func readAll(atMost limit: Int = .max) throws(FleetTripsError) -> [UInt8] {
        let descriptor: Int32 = isStandardInput ? STDIN_FILENO : open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure("cannot open") }
        defer { if !isStandardInput { close(descriptor) } }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read")
            }
            contents.append(contentsOf: chunk[..<count])
            if contents.count > limit { return Array(contents[...limit]) }
        }
    }

    private func failure(_ what: String) -> FleetTripsError {
        FleetTripsError(
            code: .unreadableInput,
            message: "\(what) \(displayName): " + String(cString: strerror(errno)))
    }
}
