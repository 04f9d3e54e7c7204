/// The known message type names closest to one that was mistyped, for "did you mean" hints.
enum MessageTypeSuggestions {
    /// Up to `limit` names from `names` that `query` most likely meant, best first.
    ///
    /// Names are compared in any case, by their last component (the message's own name) against
    /// the query's. A name ranks first when that component is the query's (`trip` and
    /// `maps.fleetengine.v2.Trip` both find `maps.fleetengine.v1.Trip`), then when it starts with
    /// it, then when the full name contains the query, then by edit distance between the two
    /// components when that distance is small against the query's length.
    static func closeMatches(for query: String, among names: [String], limit: Int = 5) -> [String] {
        let wanted = query.lowercased()
        let wantedLast = lastComponent(of: wanted)
        guard !wantedLast.isEmpty else { return [] }
        var scored: [(score: Int, name: String)] = []
        for name in names {
            let full = name.lowercased()
            let last = lastComponent(of: full)
            if last == wantedLast {
                scored.append((0, name))
            } else if wantedLast.count >= 3, last.hasPrefix(wantedLast) {
                scored.append((1, name))
            } else if wanted.count >= 3, full.contains(wanted) {
                scored.append((2, name))
            } else {
                let distance = editDistance(wantedLast, last)
                if distance <= max(2, wantedLast.count / 4) {
                    scored.append((3 + distance, name))
                }
            }
        }
        scored.sort { ($0.score, $0.name) < ($1.score, $1.name) }
        return scored.prefix(limit).map(\.name)
    }

    private static func lastComponent(of name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? ""
    }

    /// Levenshtein distance between two strings, over their Unicode scalars.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs.unicodeScalars)
        let right = Array(rhs.unicodeScalars)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        var current = previous
        for i in 1...left.count {
            current[0] = i
            for j in 1...right.count {
                let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
