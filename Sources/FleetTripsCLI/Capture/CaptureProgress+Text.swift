extension CaptureProgress {
    /// The progress line, without control characters: `capture: 12.3 MiB of 45.6 MiB (27%),
    /// 10234 messages, 8.1 MiB/s`; without the size and percentage when the size is not known
    /// (`capture: 12.3 MiB read, ...`), and without the rate before any time has passed. Short
    /// enough for an 80-column terminal, where a wrapped line could not be rewritten in place.
    static func line(bytesRead: Int64, totalBytes: Int64?, messages: Int, elapsed: Duration) -> String {
        var parts: [String] = []
        if let totalBytes {
            var read = "\(byteCount(bytesRead)) of \(byteCount(totalBytes))"
            // A file that grew while read would pass 100%.
            if totalBytes > 0 { read += " (\(min(100, bytesRead * 100 / totalBytes))%)" }
            parts.append(read)
        } else {
            parts.append("\(byteCount(bytesRead)) read")
        }
        parts.append(messages == 1 ? "1 message" : "\(messages) messages")
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if seconds > 0 {
            parts.append("\(byteCount(Int64((Double(bytesRead) / seconds).rounded())))/s")
        }
        return "capture: " + parts.joined(separator: ", ")
    }

    /// `bytes` in binary units with one decimal: `512 B`, `1.5 KiB`, `12.3 MiB`, `2.0 GiB`.
    static func byteCount(_ bytes: Int64) -> String {
        let units: [(name: String, size: Int64)] = [
            ("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10),
        ]
        guard let unit = units.first(where: { bytes >= $0.size }) else { return "\(bytes) B" }
        // Tenths, rounded half up, in whole numbers: no floating point to print.
        let tenths = (bytes / unit.size) * 10 + ((bytes % unit.size) * 10 + unit.size / 2) / unit.size
        return "\(tenths / 10).\(tenths % 10) \(unit.name)"
    }
}
