#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names of the trips to follow: one per line, blank lines skipped.
enum TripNames {
    /// Reads the names from the file at `path`, or from standard input when `path` is nil.
    static func read(from path: String?) throws -> [String] {
        guard let path else { return lines { readLine(strippingNewline: true) } }
        guard let file = fopen(path, "r") else {
            throw FollowLoadError("cannot open --names-file \(path): errno \(errno)")
        }
        defer { fclose(file) }
        return lines {
            var line: UnsafeMutablePointer<CChar>?
            var capacity = 0
            defer { free(line) }
            guard getline(&line, &capacity, file) >= 0, let line else { return nil }
            return String(cString: line)
        }
    }

    private static func lines(_ next: () -> String?) -> [String] {
        var names: [String] = []
        while let line = next() {
            let name = line.trimmingWhitespace()
            if !name.isEmpty { names.append(name) }
        }
        return names
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
