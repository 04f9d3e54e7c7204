import FleetEngineClient
import FleetTripsInput
import Foundation
import Hummingbird
import JourneySharing
import Logging
import NIOCore
import ServiceLifecycle
import TripTracking
import UnixSignals

/// Serves live pages of trips (`--web`) until SIGINT or SIGTERM: what `follow --web` and
/// `demo --web` share.
///
/// The trips are followed only while a page of theirs is open; the list page shows them all.
/// Standard error gets `pages: URL` (the list), a `trip page: URL` per trip (for up to 20), and a
/// `share link: URL` per trip when share links are signed.
struct TripPagesServing {
    var names: [String]
    var providerID: String
    var interval: Duration
    var requestBudget = RequestBudget.fleetEngineDefault
    var host: String
    var port: Int
    var options: TripPagesOptions
    var shareExpiry: Duration

    /// The most trips whose page URLs are printed one by one.
    static let printedTripPages = 20

    /// Serves the pages over `client` until SIGINT or SIGTERM, or, with `relay`, until the group that
    /// relay belongs to shuts down (a process's signals reach one service group only); then the
    /// streams end, the server stops and following stops.
    ///
    /// - Throws: the pages' ``JourneySharingError`` (their files not found), or the server's
    ///   failure to listen.
    func run(client: FleetEngineClient, errorOutput: inout some ByteSink, relay: FollowingShutdown? = nil) async throws
    {
        let service = TripService(
            client: client, providerID: providerID,
            defaultOptions: TripModelOptions(autoRefreshTimeInterval: interval), requestBudget: requestBudget)
        let pages = try TripPages(service: service, options: options)
        pages.list(names)
        let (addresses, addressContinuation) = AsyncStream.makeStream(of: SocketAddress?.self)
        let quiet = Logger(label: "fleettrips.web", factory: { _ in SwiftLogNoOpLogHandler() })
        let application = Application(
            router: pages.router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                addressContinuation.yield(channel.localAddress)
                addressContinuation.finish()
            },
            logger: quiet)
        // Shut down last to first: the pages end their streams, then the server stops, then following.
        let group = ServiceGroup(
            services: [service, application, pages], gracefulShutdownSignals: relay == nil ? [.sigterm, .sigint] : [],
            logger: quiet)
        await relay?.relay(to: group)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { addressContinuation.finish() }
                try await group.run()
            }
            var listening: SocketAddress?
            for await address in addresses { listening = address }
            guard let port = listening?.port else {
                // The server never ran: it could not listen (the port is taken, the host is not this machine's).
                var cause: (any Error)?
                do { try await tasks.waitForAll() } catch { cause = error }
                throw WebListenFailure(host: host, port: self.port, cause: cause)
            }
            try errorOutput.write(Array(lines(pages: pages, port: port).utf8))
            try await tasks.waitForAll()
        }
    }

    /// The lines that say where the pages are.
    private func lines(pages: TripPages, port: Int) -> String {
        let hostInURL = host.contains(":") ? "[\(host)]" : host
        let root = "http://\(hostInURL):\(port)/"
        var text = "pages: \(root)\n"
        let trips = pages.listedTrips
        if trips.count <= Self.printedTripPages {
            for trip in trips {
                text += "trip page: \(root)\(pages.tripPagePath(for: trip))\n"
            }
        }
        let expiry = Date().addingTimeInterval(Double(shareExpiry.components.seconds))
        for trip in trips {
            if let path = pages.sharePath(for: trip, expiresAt: expiry) { text += "share link: \(root)\(path)\n" }
        }
        if !options.servesRemoteViewers, !LoopbackHost.contains(host) {
            text +=
                "note: the list and the trip pages are served to this machine only; --allow-remote serves them to "
                + "others\(options.shareLinks == nil ? ", or share links (--share-secret-file) open one trip each" : "")\n"
        }
        return text
    }
}

/// `--web`'s server could not listen: the tool's own failure, not a status of Fleet Engine's.
struct WebListenFailure: Error, CustomStringConvertible {
    var host: String
    var port: Int
    var cause: (any Error)?

    var description: String {
        "--web: cannot serve the pages on \(host):\(port)" + (cause.map { ": \($0)" } ?? "")
    }
}
