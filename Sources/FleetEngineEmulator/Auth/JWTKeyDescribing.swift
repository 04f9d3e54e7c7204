/// What both kinds of key print: `RS256 key "key-1"`, the algorithm and the id, never the key
/// material, so that printing a configuration cannot leak a secret into a log, not even in debug
/// output.
public protocol JWTKeyDescribing: CustomStringConvertible, CustomDebugStringConvertible {
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
}
