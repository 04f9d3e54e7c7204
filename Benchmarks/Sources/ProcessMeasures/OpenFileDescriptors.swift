#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many file descriptors this process holds open, from Linux's `/proc/self/fd`: a count that
/// keeps rising over a long run is a leak (sockets of closed connections, files never closed).
public enum OpenFileDescriptors {
    /// The open descriptors now, not counting the one that lists them; nil where there is no
    /// `/proc/self/fd` (not Linux).
    public static func count() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        // The directory being read is itself an open descriptor.
        return count - 1
    }
}
