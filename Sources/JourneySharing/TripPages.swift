import FleetEngineStatus
public import Foundation
public import Hummingbird
import NIOCore
public import ServiceLifecycle
public import TripTracking

/// Live web pages of followed trips, on a Hummingbird router: a page per trip that draws its route,
/// traffic, waypoints and vehicle and updates as the trip changes, and a list of the trips.
///
/// Each trip page is a journey sharing session, as in the Consumer SDK: the first page open on a
/// trip makes its `TripModel` followed, the last one closing makes it idle (no more refreshes),
/// and however many pages show a trip, they share one model, one refresh per interval, and one
/// message per change, pushed to the browsers as Server-Sent Events. A page that reconnects gets
/// the trip's current state at once.
///
/// ```swift
/// let pages = try TripPages(service: tripService)
/// pages.list(["trip-1", "trip-2"])
/// let router = Router(context: TripPageRequestContext.self)
/// router.addRoutes(pages.routes(), atPath: "/trips")
/// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// // run app.run() beside tripService.run() and the client's run(), e.g. in a ServiceGroup
/// ```
///
/// The paths, under where the routes are mounted: the list (`/`), its JSON (`api/trips`) and
/// stream (`events`); a listed trip's page (`trips/{trip id}`) and stream (`trips/{trip id}/events`);
/// a share link's page (`shared/{token}`) and stream; the page's files (`assets/{name}`).
/// The list and the trip pages are for this machine (loopback peers) unless
/// ``TripPagesOptions/servesRemoteViewers``; a share link (``shareToken(for:expiresAt:)``) opens
/// one trip's page for anyone who holds it, until it expires.
///
/// The map is drawn by the page's own script from the trip's coordinates, with no map service;
/// ``TripPagesOptions/tileURLTemplate`` adds tiles under it.
///
/// An event stream learns that its browser went away from the request's body
/// (`consumeWithCancellationOnInboundClose`), so middleware in front of these routes must leave
/// the body of a `GET` as it came (Hummingbird stops the process otherwise).
public final class TripPages: Sendable, Service {
    /// The trip service whose models the pages follow.
    public let service: TripService
    /// How the pages are served.
    public let options: TripPagesOptions
    let directory: TripDirectory
    let assets: PageAssets
    /// The time share links are checked against.
    let now: @Sendable () -> Date

    /// Pages of `service`'s trips.
    ///
    /// - Throws: ``JourneySharingError/Code/assetsNotFound`` when the page's files cannot be read
    ///   (see ``TripPagesOptions/assetsDirectory``).
    public convenience init(
        service: TripService, options: TripPagesOptions = TripPagesOptions()
    ) throws(JourneySharingError) {
        try self.init(service: service, options: options, now: { Date() })
    }

    /// Pages whose share links expire by `now` (for tests).
    init(
        service: TripService, options: TripPagesOptions, now: @escaping @Sendable () -> Date
    ) throws(JourneySharingError) {
        self.service = service
        self.options = options
        self.now = now
        self.directory = TripDirectory(service: service, viewerBufferLimit: options.viewerBufferLimit)
        self.assets = try PageAssets.load(from: options.assetsDirectory)
    }

    /// Shows trips on the list page, in order (full names, or trip ids of the service's provider);
    /// a trip listed already keeps its place. Only listed trips have pages by their id (others get
    /// 404), so nobody can make the service follow a trip it does not show. Listing follows
    /// nothing: a trip is followed while a page of it is open, and the list page asks once for the
    /// status of a trip nobody has fetched.
    public func list(_ names: [String]) {
        directory.list(names)
    }

    /// Takes trips off the list (their pages by id then answer 404; pages open on them stay open
    /// until they close), so that a service that shows a stream of trips keeps only the current
    /// ones. Share links to them still open their pages.
    public func unlist(_ names: [String]) {
        directory.unlist(names)
    }

    /// The full names of the listed trips, in order.
    public var listedTrips: [String] { directory.listedNames }

    /// The pages open on the trip `name` now (full name or trip id).
    public func viewerCount(of name: String) -> Int {
        directory.existingSession(for: directory.fullName(of: name))?.viewerCount ?? 0
    }

    /// The token of a share link that opens the page of trip `name` until `expiresAt`; nil without
    /// ``TripPagesOptions/shareLinks``. The link is ``sharePath(for:expiresAt:)``.
    public func shareToken(for name: String, expiresAt: Date) -> String? {
        options.shareLinks?.token(for: directory.fullName(of: name), expiresAt: expiresAt)
    }

    /// The path of a share link to trip `name`'s page, valid until `expiresAt`, relative to where
    /// the routes are mounted (`shared/{token}`); nil without ``TripPagesOptions/shareLinks``.
    public func sharePath(for name: String, expiresAt: Date) -> String? {
        shareToken(for: name, expiresAt: expiresAt).map { "shared/" + Self.pathComponent($0) }
    }

    /// The path of trip `name`'s page, relative to where the routes are mounted
    /// (`trips/{trip id}`, percent-encoded).
    public func tripPagePath(for name: String) -> String {
        "trips/" + Self.pathComponent(TripName.lastSegment(of: directory.fullName(of: name)))
    }

    /// The pages' routes, to mount on a router (`router.addRoutes(pages.routes(), atPath: ...)`).
    /// The context must know the peer's address, so that the pages can be kept to loopback peers.
    public func routes<Context: RemoteAddressRequestContext>(
        context: Context.Type = TripPageRequestContext.self
    ) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("") { request, context in self.listPage(request, context) }
        routes.get("api/trips") { request, context in self.tripsJSON(context) }
        routes.get("events") { request, context in self.listEvents(request, context) }
        routes.get("trips/:id") { request, context in self.tripPage(request, context) }
        routes.get("trips/:id/events") { request, context in self.tripEvents(request, context) }
        routes.get("shared/:token") { request, context in self.sharedPage(request, context) }
        routes.get("shared/:token/events") { request, context in self.sharedEvents(request, context) }
        routes.get("assets/:file") { request, context in self.asset(context) }
        return routes
    }

    /// A router with the pages at its root, for an application that serves nothing else.
    public func router() -> Router<TripPageRequestContext> {
        let router = Router(context: TripPageRequestContext.self)
        router.addRoutes(routes())
        return router
    }
}

extension TripPages {
    /// Waits for a graceful shutdown, then ends every open stream (``close()``), so that the HTTP
    /// server, which waits for its responses to finish, can stop. Put it in the `ServiceGroup`
    /// after the application, so that it is shut down first.
    public func run() async throws {
        try? await gracefulShutdown()
        close()
    }

    /// Ends every event stream, of the list and of the trips, and every stream opened from now on;
    /// the trips' following stops when nothing else follows them.
    public func close() {
        directory.close()
    }
}
