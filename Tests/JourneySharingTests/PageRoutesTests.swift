import FleetEngineTestSupport
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization
import Testing

@testable import JourneySharing

@Suite("trip pages over HTTP")
struct PageRoutesTests {
    @Test("the list page fills its template: paths under the mount point, the config, a content security policy")
    func listPage() async throws {
        try await withPages { harness in
            harness.pages.list(["a"])
            try await withServedPages(harness, at: "/fleet/live") { port in
                for path in ["/fleet/live", "/fleet/live/"] {
                    let response = try await PageClient.get(port: port, path)
                    #expect(response.status == 200)
                    #expect(response.headers.first(name: "content-type") == "text/html; charset=utf-8")
                    let policy = try #require(response.headers.first(name: "content-security-policy"))
                    #expect(policy.hasPrefix("default-src 'none'; script-src 'self';"))
                    #expect(!response.body.contains("{{"))
                    #expect(response.body.contains("/fleet/live/assets/list.js"))
                    #expect(response.body.contains(#"{"events":"/fleet/live/events","trips":"/fleet/live/trips/"}"#))
                }
                let json = try await PageClient.get(port: port, "/fleet/live/api/trips")
                #expect(json.status == 200)
                let trips = try #require(
                    try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: [[String: Any]]])
                #expect(trips["trips"]?.map { $0["trip"] as? String } == ["providers/\(PagesHarness.provider)/trips/a"])
                #expect(trips["trips"]?.first?["viewers"] as? Int == 0)
            }
        }
    }

    @Test("a trip page names its stream, the trip and no tiles; text from the URL is escaped")
    func tripPage() async throws {
        try await withPages { harness in
            harness.pages.list(["t-9", "<b>\"x'"])
            try await withServedPages(harness) { port in
                let page = try await PageClient.get(port: port, "/trips/t-9")
                #expect(page.status == 200)
                #expect(page.body.contains("/assets/trip.js"))
                #expect(
                    page.body.contains(
                        #"{"events":"/trips/t-9/events","trip":"providers/pages-tests/trips/t-9","tripId":"t-9","tiles":null,"list":"/"}"#
                    ))
                let odd = try await PageClient.get(port: port, "/trips/%3Cb%3E%22x'")
                #expect(odd.status == 200)
                #expect(odd.body.contains("<title>Trip &lt;b&gt;&quot;x&#39;</title>"))
                #expect(odd.body.contains(#""tripId":"\u003cb>\"x'""#))
                // A trip id holds no "/": one that does is no trip's.
                let slashed = try await PageClient.get(port: port, "/trips/a%2Fb")
                #expect(slashed.status == 404)
            }
        }
    }

    @Test("a trip that is not listed has no page and no stream, and asking follows nothing; unlisting takes one away")
    func unlistedTrips() async throws {
        try await withPages { harness in
            try harness.addMovingTrip("hidden")
            harness.pages.list(["hidden"])
            harness.pages.unlist(["providers/\(PagesHarness.provider)/trips/hidden"])
            #expect(harness.pages.listedTrips.isEmpty)
            try await withServedPages(harness) { port in
                for path in ["/trips/hidden", "/trips/hidden/events", "/trips/other", "/trips/other/events"] {
                    let response = try await PageClient.get(port: port, path)
                    #expect(response.status == 404, "\(path)")
                    #expect(response.body.contains("This server shows no trip of that name."))
                }
            }
            #expect(harness.service.followedTripCount == 0)
            #expect(harness.service.tripModel(for: "hidden").refreshCount == 0)
        }
    }

    @Test("with a tile template, the page is told it and its policy lets images come from the tiles' origin")
    func tiles() async throws {
        let template = "https://tiles.example.test:8443/base/{z}/{x}/{y}.png"
        try await withPages(options: TripPagesOptions(tileURLTemplate: template)) { harness in
            harness.pages.list(["t"])
            try await withServedPages(harness) { port in
                let page = try await PageClient.get(port: port, "/trips/t")
                #expect(page.body.contains(#""tiles":"https://tiles.example.test:8443/base/{z}/{x}/{y}.png""#))
                let policy = try #require(page.headers.first(name: "content-security-policy"))
                #expect(policy.contains("img-src 'self' data: https://tiles.example.test:8443;"))
                #expect(page.headers.first(name: "referrer-policy") == "no-referrer")
            }
        }
    }

    @Test("the page's files are served with their types; any other name is not found")
    func assets() async throws {
        try await withPages { harness in
            try await withServedPages(harness) { port in
                let script = try await PageClient.get(port: port, "/assets/trip.js")
                #expect(script.status == 200)
                #expect(script.headers.first(name: "content-type") == "text/javascript; charset=utf-8")
                #expect(script.body.contains("EventSource"))
                let style = try await PageClient.get(port: port, "/assets/trip.css")
                #expect(style.headers.first(name: "content-type") == "text/css; charset=utf-8")
                for missing in ["/assets/trip.html", "/assets/nothing.js", "/assets/..%2FPackage.swift"] {
                    let response = try await PageClient.get(port: port, missing)
                    #expect(response.status == 404, "\(missing)")
                }
            }
        }
    }

    @Test("a trip's stream pushes each state as it comes, and closing it ends following")
    func liveStream() async throws {
        try await withPages { harness in
            try harness.addMovingTrip("live")
            harness.pages.list(["live"])
            let model = harness.service.tripModel(for: "live")
            try await withServedPages(harness) { port in
                try await PageClient.stream(port: port, "/trips/live/events") { status, headers, body in
                    #expect(status == 200)
                    #expect(headers.first(name: "content-type") == "text/event-stream")
                    var events = EventStreamReader()
                    let first = try await events.nextState(from: &body)
                    #expect(events.retry == 1000)
                    #expect(first.seq == 1)
                    #expect(harness.pages.viewerCount(of: "live") == 1)
                    await harness.step("live")
                    let second = try await events.nextState(from: &body)
                    #expect(second.seq == 2)
                    #expect(second.vehicleLatitude == 52.501)
                }
                // The browser went away: the server sees the connection close and lets the trip go.
                #expect(await waitUntil { harness.pages.viewerCount(of: "live") == 0 && model.modelState == .idle })
            }
        }
    }

    @Test("an ended trip's stream sends its last state marked ended, then ends")
    func endedStream() async throws {
        try await withPages { harness in
            try harness.addMovingTrip("done", endsAt: 0, final: .canceled)
            harness.pages.list(["done"])
            try await withServedPages(harness) { port in
                let response = try await PageClient.get(port: port, "/trips/done/events")
                var events = EventStreamReader()
                let states = try events.states(in: response.body)
                #expect(states.map(\.status) == ["CANCELED", "CANCELED"])
                #expect(states.map(\.ended) == [false, true])
            }
        }
    }

    @Test("a share link opens its trip's page and stream; an expired or altered one gets a page that says so")
    func shareLinks() async throws {
        var options = TripPagesOptions()
        options.shareLinks = try ShareLinkSigner(secret: Array(repeating: 42, count: 32))
        try await withPages(options: options) { harness in
            try harness.addMovingTrip("shared", endsAt: 0)
            let path = try #require(harness.pages.sharePath(for: "shared", expiresAt: Date().addingTimeInterval(600)))
            let expired = try #require(harness.pages.sharePath(for: "shared", expiresAt: Date().addingTimeInterval(-1)))
            try await withServedPages(harness, at: "/p") { port in
                let page = try await PageClient.get(port: port, "/p/" + path)
                #expect(page.status == 200)
                #expect(page.body.contains(#""events":"/p/\#(path)/events""#))
                #expect(page.body.contains(#""list":null"#))
                let stream = try await PageClient.get(port: port, "/p/" + path + "/events")
                var events = EventStreamReader()
                let states = try events.states(in: stream.body)
                #expect(states.last?.status == "COMPLETE")

                let old = try await PageClient.get(port: port, "/p/" + expired)
                #expect(old.status == 403)
                #expect(old.body.contains("This trip link has expired."))
                #expect(!old.body.contains("shared\\/"))
                let altered = try await PageClient.get(
                    port: port, "/p/" + path.replacingOccurrences(of: ".", with: ".9"))
                #expect(altered.status == 403)
                #expect(altered.body.contains("This trip link is not valid"))
                let expiredStream = try await PageClient.get(port: port, "/p/" + expired + "/events")
                #expect(expiredStream.status == 403)
            }
        }
    }

    @Test(
        "a shared page's stream ends at the link's expiry, without the states that come after it",
        .timeLimit(.minutes(5)))
    func sharedStreamEndsAtExpiry() async throws {
        var options = TripPagesOptions()
        options.shareLinks = try ShareLinkSigner(secret: Array(repeating: 9, count: 32))
        // The pages' clock, moved by the test: the link expires at a minute.
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = Mutex(start)
        try await withPages(options: options, now: { clock.withLock { $0 } }) { harness in
            try harness.addMovingTrip("brief")
            let path = try #require(harness.pages.sharePath(for: "brief", expiresAt: start.addingTimeInterval(60)))
            try await withServedPages(harness) { port in
                try await PageClient.stream(port: port, "/" + path + "/events") { status, _, body in
                    #expect(status == 200)
                    var events = EventStreamReader()
                    let first = try await events.nextState(from: &body)
                    #expect(first.seq == 1)
                    clock.withLock { $0 = start.addingTimeInterval(60) }
                    await harness.step("brief")
                    var rest = ""
                    while let part = try await body.next() { rest += part }
                    #expect(try events.states(in: rest).isEmpty)
                }
                let late = try await PageClient.get(port: port, "/" + path + "/events")
                #expect(late.status == 403)
                #expect(late.body.contains("This trip link has expired."))
            }
            #expect(await waitUntil { harness.pages.viewerCount(of: "brief") == 0 })
        }
    }

    @Test("without a signer, share paths are not found")
    func noShareLinks() async throws {
        try await withPages { harness in
            #expect(harness.pages.sharePath(for: "x", expiresAt: Date()) == nil)
            try await withServedPages(harness) { port in
                let response = try await PageClient.get(port: port, "/shared/abc.1.def")
                #expect(response.status == 404)
            }
        }
    }

    @Test("the list and trip pages refuse peers that are not loopback unless told otherwise; share links do not")
    func remotePeersRefused() async throws {
        let remote = try SocketAddress(ipAddress: "192.0.2.7", port: 50_000)
        try await withPages { harness in
            let context = PeerContext(remoteAddress: remote)
            #expect(harness.pages.tripsJSON(context).status == .forbidden)
            let loopback = try SocketAddress(ipAddress: "::1", port: 1)
            #expect(harness.pages.tripsJSON(PeerContext(remoteAddress: loopback)).status == .ok)
            #expect(harness.pages.tripsJSON(PeerContext(remoteAddress: nil)).status == .forbidden)
        }
        try await withPages(options: TripPagesOptions(servesRemoteViewers: true)) { harness in
            #expect(harness.pages.tripsJSON(PeerContext(remoteAddress: remote)).status == .ok)
        }
    }

    @Test(
        "loopback is 127.0.0.0/8, ::1 and their IPv4-mapped forms, and a Unix socket",
        arguments: [
            ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("::ffff:127.0.0.2", true),
            ("128.0.0.1", false), ("10.0.0.1", false), ("::2", false), ("::ffff:10.0.0.1", false), ("fe80::1", false),
        ])
    func loopbackAddresses(_ address: String, _ isLoopback: Bool) throws {
        let socketAddress = try SocketAddress(ipAddress: address, port: 1)
        #expect(socketAddress.isLoopback == isLoopback)
    }
}

/// A request context with a peer address of the test's choosing.
struct PeerContext: RemoteAddressRequestContext {
    struct Source: RequestContextSource {
        var logger: Logger
    }

    var coreContext: CoreRequestContextStorage
    var remoteAddress: SocketAddress?

    init(source: Source) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = nil
    }

    init(remoteAddress: SocketAddress?) {
        self.init(source: Source(logger: Logger(label: "pages-tests", factory: { _ in SwiftLogNoOpLogHandler() })))
        self.remoteAddress = remoteAddress
    }
}

/// Reads Server-Sent Events as they arrive: `retry:`, and `state` events.
struct EventStreamReader {
    private var pending = ""
    private(set) var retry: Int?

    /// The next state event, reading more of `body` as needed.
    mutating func nextState(from body: inout PageClient.Body) async throws -> StateEvent {
        while true {
            if let state = try takeState() { return state }
            guard let more = try await body.next() else { throw PageClientError(message: "the stream ended") }
            pending += more
        }
    }

    /// Every state event in a whole body.
    mutating func states(in body: String) throws -> [StateEvent] {
        pending += body
        var states: [StateEvent] = []
        while let state = try takeState() { states.append(state) }
        return states
    }

    private mutating func takeState() throws -> StateEvent? {
        while let end = pending.range(of: "\n\n") {
            let message = String(pending[..<end.upperBound])
            pending.removeSubrange(..<end.upperBound)
            if message.hasPrefix("retry: ") {
                retry = Int(message.dropFirst(7).dropLast(2))
                continue
            }
            return try StateEvent(ByteBuffer(string: message))
        }
        return nil
    }
}
