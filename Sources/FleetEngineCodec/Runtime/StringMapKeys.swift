/// Keeps the keys of a `map<string, …>` field apart as protobuf does, in a Swift dictionary that
/// would merge some of them.
///
/// Protobuf compares string keys by their code points, so `"\u{E9}"` and `"e\u{301}"` are two keys
/// (Google's parsers keep both). Swift's `String` compares by canonical equivalence, under which they
/// are one: storing both in a `[String: String]` would silently keep one entry, under the first
/// key with the second value. The public field type stays `[String: Value]`, so decoding refuses
/// such input with ``CodecError/Code/canonicallyEquivalentMapKeys`` instead. A key repeated with the
/// very same code points is no conflict: the last value wins, as protobuf defines.
enum StringMapKeys {
    /// The key already in `map` that Swift's `String` takes for `key` although its code points differ.
    static func equivalentKey<Value>(to key: String, in map: [String: Value]) -> String? {
        guard let index = map.index(forKey: key) else { return nil }
        let existing = map.keys[index]
        return existing.unicodeScalars.elementsEqual(key.unicodeScalars) ? nil : existing
    }

    /// The keys in protobuf's order, the order Google's deterministic serialization writes map
    /// entries in: by their UTF-8 bytes, which is code point order. Swift's `<` on `String` compares
    /// canonical forms instead, so it puts `"f"` before `"e\u{301}"` (NFC `"\u{E9}"`).
    static func protobufOrder(_ keys: some Collection<String>) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The error's text for two keys of the map field `field` that Swift would merge.
    static func conflict(field: String, existing: String, key: String) -> String {
        "map field \(field) names the keys \(described(existing)) and \(described(key)), which are canonically"
            + " equivalent: two keys to protobuf but one to Swift's String, so one entry would be lost"
    }

    /// The key in quotes with its code points, since equivalent keys usually look identical.
    private static func described(_ key: String) -> String {
        let limit = 8
        var names = key.unicodeScalars.prefix(limit).map { JSONParser.scalarName($0.value) }
        if key.unicodeScalars.count > limit { names.append("...") }
        return "\"\(JSONValue.shortened(key))\" (\(names.joined(separator: " ")))"
    }
}
