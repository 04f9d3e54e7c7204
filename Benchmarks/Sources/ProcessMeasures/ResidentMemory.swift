#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's resident memory, from Linux's `/proc/self/status`.
public struct ResidentMemory: Sendable {
    /// `VmRSS`: resident now, in bytes.
    public var current: Int
    /// `VmHWM`: the most that was ever resident, in bytes.
    public var peak: Int

    /// Reads `/proc/self/status`; nil where there is none (not Linux) or it lacks the two lines.
    public static func read() -> ResidentMemory? {
        guard let text = readFile("/proc/self/status") else { return nil }
        var current: Int?
        var peak: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") {
                current = kilobytes(in: line)
            } else if line.hasPrefix("VmHWM:") {
                peak = kilobytes(in: line)
            }
        }
        guard let current, let peak else { return nil }
        return ResidentMemory(current: current * 1024, peak: peak * 1024)
    }

    /// The number in a line such as `VmRSS:   123456 kB`.
    private static func kilobytes(in line: Substring) -> Int? {
        line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// `read` inside the type names its static method, so the system call goes by another name.
#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
#endif
