import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an action once when the process receives SIGINT or SIGTERM, instead of dying at once, so a
/// server can finish its calls in flight.
final class ShutdownSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ action: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    /// Stops listening for the signals.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
