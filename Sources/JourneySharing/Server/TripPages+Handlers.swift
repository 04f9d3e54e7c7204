import FleetEngineStatus
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension TripPages {
    /// How long the list page's stream waits after a change before sending, so that a burst of
    /// changes is one message.
    static let listCoalescing = Duration.milliseconds(500)

    static let noSuchTrip = "This server shows no trip of that name."

    /// `Referrer-Policy`, which swift-http-types does not name.
    static let referrerPolicyField = HTTPField.Name("Referrer-Policy")

    func listPage(_ request: Request, _ context: some RemoteAddressRequestContext) -> Response {
        guard permits(context) else { return refusal() }
        directory.peekAtListed()
        let base = Self.base(of: request, dropping: 0)
        let config = PageTemplate.config(["events": base + "events", "trips": base + "trips/"])
        let page = PageTemplate.fill(assets.listTemplate, base: base, title: "Followed trips", config: config)
        return html(page)
    }

    func tripsJSON(_ context: some RemoteAddressRequestContext) -> Response {
        guard permits(context) else { return refusal() }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: directory.summariesJSON())))
    }

    func listEvents(_ request: Request, _ context: some RemoteAddressRequestContext) -> Response {
        guard permits(context) else { return refusal() }
        directory.peekAtListed()
        let directory = self.directory
        return eventStream(request) { writer in
            // Watched from here on, while the response is written: a response never written
            // (its connection gone first) leaves nothing behind.
            let changes = directory.watch()
            try await writer.write(Self.listEvent(directory))
            for await _ in changes {
                try await Task.sleep(for: Self.listCoalescing)
                try await writer.write(Self.listEvent(directory))
            }
        }
    }

    func tripPage(_ request: Request, _ context: some RemoteAddressRequestContext) -> Response {
        guard permits(context) else { return refusal() }
        guard let id = Self.parameter("id", context), directory.isListed(id) else { return notFound(Self.noSuchTrip) }
        let name = directory.fullName(of: id)
        let base = Self.base(of: request, dropping: 2)
        return tripPageResponse(
            name: name, base: base, events: base + "trips/" + Self.pathComponent(id) + "/events", list: base)
    }

    func tripEvents(_ request: Request, _ context: some RemoteAddressRequestContext) -> Response {
        guard permits(context) else { return refusal() }
        guard let id = Self.parameter("id", context), directory.isListed(id) else { return notFound(Self.noSuchTrip) }
        let session = directory.session(for: id)
        return eventStream(request) { writer in
            // A viewer from here on, while the response is written, as the list's watch above.
            for await message in session.openViewer() { try await writer.write(message) }
        }
    }

    func sharedPage(_ request: Request, _ context: some RemoteAddressRequestContext) -> Response {
        let shared: SharedTrip
        switch openShareLink(context) {
        case .success(let opened): shared = opened
        case .failure(let refused): return refused.response
        }
        let base = Self.base(of: request, dropping: 2)
        let token = Self.parameter("token", context) ?? ""
        return tripPageResponse(
            name: shared.tripName, base: base, events: base + "shared/" + Self.pathComponent(token) + "/events",
            list: nil)
    }

    func sharedEvents(_ request: Request, _ context: some RemoteAddressRequestContext) -> Response {
        let shared: SharedTrip
        switch openShareLink(context) {
        case .success(let opened): shared = opened
        case .failure(let refused): return refused.response
        }
        let session = directory.session(for: shared.tripName)
        let now = self.now
        return eventStream(request) { writer in
            // The link's time is up for an open page too: the stream ends, and reconnecting is refused.
            for await message in session.openViewer() {
                guard now() < shared.expiresAt else { break }
                try await writer.write(message)
            }
        }
    }

    func asset(_ context: some RemoteAddressRequestContext) -> Response {
        guard let name = Self.parameter("file", context), let file = assets.files[name] else {
            return notFound("No such file.")
        }
        return Response(
            status: .ok, headers: [.contentType: file.contentType, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: file.bytes))
    }

    // MARK: Pieces

    private func tripPageResponse(name: String, base: String, events: String, list: String?) -> Response {
        let id = TripName.lastSegment(of: name)
        let config = PageTemplate.config([
            "events": events, "trip": name, "tripId": id, "tiles": options.tileURLTemplate, "list": list,
        ])
        return html(PageTemplate.fill(assets.tripTemplate, base: base, title: "Trip \(id)", config: config))
    }

    /// The trip a share link's token opens, or the page that says why it does not.
    private func openShareLink(_ context: some RemoteAddressRequestContext) -> Result<SharedTrip, ResponseRefusal> {
        guard let signer = options.shareLinks, let token = Self.parameter("token", context) else {
            return .failure(ResponseRefusal(notFound("Share links are not served here.")))
        }
        do {
            return .success(try signer.sharedTrip(openedBy: token, now: now()))
        } catch {
            let page =
                error.code == .expiredShareLink
                ? errorPage(
                    status: .forbidden, title: "Link expired",
                    text: "This trip link has expired. Ask whoever sent it for a new one.")
                : errorPage(
                    status: .forbidden, title: "Link not valid",
                    text: "This trip link is not valid: it was cut short or changed. Ask whoever sent it for the "
                        + "link again.")
            return .failure(ResponseRefusal(page))
        }
    }

    private func permits(_ context: some RemoteAddressRequestContext) -> Bool {
        options.servesRemoteViewers || context.remoteAddress?.isLoopback == true
    }

    private func refusal() -> Response {
        errorPage(
            status: .forbidden, title: "Not served to other machines",
            text: "These trip pages are served to this machine only. Ask for a share link to one trip.")
    }

    private func notFound(_ text: String) -> Response {
        errorPage(status: .notFound, title: "Not found", text: text)
    }

    private func errorPage(status: HTTPResponse.Status, title: String, text: String) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <link rel="icon" href="data:,"><title>\(PageTemplate.escapeHTML(title))</title></head>
            <body style="font-family: system-ui, sans-serif; margin: 3em auto; max-width: 36em; color: #202124">
            <h1 style="font-size: 1.4em">\(PageTemplate.escapeHTML(title))</h1>
            <p>\(PageTemplate.escapeHTML(text))</p></body></html>

            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    private func html(_ page: String) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        // A share link's token is in the page's URL: no tile request may carry it away.
        if let referrerPolicy = Self.referrerPolicyField { headers[referrerPolicy] = "no-referrer" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// The page's own files and stream only, and the tile server's images when there is one.
    private var contentSecurityPolicy: String {
        var images = "'self' data:"
        if let template = options.tileURLTemplate, let origin = Self.origin(of: template) { images += " " + origin }
        return "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src \(images); "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// A Server-Sent Events response whose body `produce` writes; it ends when `produce` returns,
    /// and `produce` is cancelled when the browser closes the connection.
    private func eventStream(
        _ request: Request, _ produce: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store"]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                // Reconnect a second after the stream ends (a dropped viewer), not the browser's three.
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await produce(&writer)
                }
                try await writer.finish(nil)
            })
    }

    private static func listEvent(_ directory: TripDirectory) -> ByteBuffer {
        var bytes = Array("event: trips\ndata: ".utf8)
        bytes += directory.summariesJSON()
        bytes += Array("\n\n".utf8)
        return ByteBuffer(bytes: bytes)
    }

    /// The path the routes are mounted at, ending in `/`: the request's path without its last
    /// `count` components.
    static func base(of request: Request, dropping count: Int) -> String {
        let components = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        let kept = components.dropLast(count)
        return kept.isEmpty ? "/" : "/" + kept.joined(separator: "/") + "/"
    }

    /// A route parameter, percent-decoded; nil when absent, empty, or holding a `/` (which no trip
    /// id or token holds, and which would make a trip id read as a full name).
    static func parameter(_ name: String, _ context: some RequestContext) -> String? {
        guard let raw = context.parameters.get(name) else { return nil }
        let value = raw.removingPercentEncoding ?? raw
        return value.isEmpty || value.contains("/") ? nil : value
    }

    /// `text` percent-encoded as one path component.
    static func pathComponent(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `scheme://host[:port]` of a URL template.
    static func origin(of template: String) -> String? {
        guard let schemeEnd = template.range(of: "://") else { return nil }
        let rest = template[schemeEnd.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !host.contains("{") else { return nil }
        return String(template[..<schemeEnd.upperBound]) + host
    }
}

/// A response that refuses a request, as the failure of a `Result`.
struct ResponseRefusal: Error {
    var response: Response
    init(_ response: Response) { self.response = response }
}
