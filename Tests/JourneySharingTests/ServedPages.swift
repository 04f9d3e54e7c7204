import Hummingbird
import Logging
import NIOCore
import TripTracking

@testable import JourneySharing

/// Runs `body` with `harness`'s pages served by Hummingbird on 127.0.0.1 (a free port), mounted at
/// `path`; the port goes to `body`.
func withServedPages<Result: Sendable>(
    _ harness: PagesHarness, at path: String = "",
    _ body: @Sendable (Int) async throws -> Result
) async throws -> Result {
    let router = Router(context: TripPageRequestContext.self)
    router.addRoutes(harness.pages.routes(), atPath: RouterPath(path))
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let application = Application(
        router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            if let port = channel.localAddress?.port { portContinuation.yield(port) }
            portContinuation.finish()
        },
        logger: Logger(label: "pages-tests", factory: { _ in SwiftLogNoOpLogHandler() }))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await application.run() }
        defer {
            harness.pages.close()
            group.cancelAll()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw PageClientError(message: "the server did not start") }
        return try await body(port)
    }
}
