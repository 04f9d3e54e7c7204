#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Progress for whoever runs a load or soak program, on standard error.
public enum StandardErrorLine {
    /// Writes `line` and a line end to standard error, unbuffered, so that a reader sees it at once.
    public static func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { systemWrite(2, $0.baseAddress, $0.count) }
    }
}

// `write` inside the type names its static method, so the system call goes by another name.
#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#endif
