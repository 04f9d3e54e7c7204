#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The environment variables the commands read: the process's own, or in a test the ones it
/// gives with ``$overrides``, so that tests running at once each see their own without changing
/// the process's environment (which is shared, and not safe to change while threads read it).
enum CommandEnvironment {
    /// The variables a test sets for the commands it runs inside `withValue`; nil (outside tests)
    /// reads the process's environment.
    @TaskLocal static var overrides: [String: String]?

    /// The name of the variable that names the TLS key log file, as in curl and browsers.
    static let keyLogFileVariable = "SSLKEYLOGFILE"

    /// The value of the variable `name`, or nil when it is not set.
    static func value(of name: String) -> String? {
        if let overrides { return overrides[name] }
        return getenv(name).map { String(cString: $0) }
    }

    /// The path `SSLKEYLOGFILE` names; nil when it is unset or empty (which curl ignores too).
    static var keyLogFile: String? {
        guard let path = value(of: keyLogFileVariable), !path.isEmpty else { return nil }
        return path
    }
}
