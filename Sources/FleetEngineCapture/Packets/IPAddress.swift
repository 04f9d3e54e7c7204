/// An IPv4 or IPv6 address, as the packet carried it.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 address, its four bytes big-endian in one integer (`127.0.0.1` is `0x7F00_0001`).
    case v4(UInt32)
    /// An IPv6 address, its sixteen bytes big-endian in two integers (high, low).
    case v6(UInt64, UInt64)

    /// Dotted decimal for IPv4; RFC 5952 text for IPv6 (lower case, the longest run of two or more
    /// zero groups as `::`, the first such run on a tie).
    public var description: String {
        switch self {
        case .v4(let value):
            return "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
        case .v6(let high, let low):
            let groups = (0..<8).map { index -> UInt16 in
                let word = index < 4 ? high : low
                return UInt16(truncatingIfNeeded: word >> (48 - 16 * UInt64(index % 4)))
            }
            var bestStart = -1
            var bestLength = 1
            var index = 0
            while index < 8 {
                guard groups[index] == 0 else {
                    index += 1
                    continue
                }
                var end = index
                while end < 8, groups[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            }
            func text(_ range: Range<Int>) -> String {
                range.map { String(groups[$0], radix: 16) }.joined(separator: ":")
            }
            guard bestStart >= 0 else { return text(0..<8) }
            return text(0..<bestStart) + "::" + text((bestStart + bestLength)..<8)
        }
    }
}
