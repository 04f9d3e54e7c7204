/// What both kinds of key print: `RS256 key "key-1"`, the algorithm and the id, never the key
/// material, so that printing a configuration cannot leak a secret into a log, not even in debug
/// output or a `dump`.
public protocol JWTKeyDescribing: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key id (`kid`), if any.
    var id: String? { get }
    /// The algorithm the key is for.
    var algorithm: JWTAlgorithm { get }
}

extension JWTKeyDescribing {
    /// `RS256 key "key-1"`, or `HS256 key without id`.
    public var description: String {
        "\(algorithm) key" + (id.map { " \"\($0)\"" } ?? " without id")
    }

    /// The ``description``.
    public var debugDescription: String { description }

    /// The id and the algorithm only: the default mirror would reflect the key material.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id as Any, "algorithm": algorithm], displayStyle: .struct)
    }
}
