import Logging

extension Logger {
    /// A logger that writes to standard error, from `level` up, keeping standard output for what a
    /// command prints. The tool makes its loggers here, as the application; the libraries it calls
    /// take theirs from it.
    static func standardError(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }
}
