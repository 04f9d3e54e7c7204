import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2
import Testing

@testable import FleetEngineClient

@Suite("Calls at the edges: stream ids used up, shutdown, extreme timeouts and expiries, streamed answers")
struct ClientLimitsTests {
    @Test(
        "a connection that has used its last stream id takes no new calls: they go to a new connection, and it closes",
        .timeLimit(.minutes(10)))
    func streamIDsUsedUp() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("ids"))
        let answer = grpcFramed(trip.serializedBytes())
        try await MalformedResponseTests.withScriptedServer({ _ in .raw(data: answer, grpcStatus: 0) }) {
            server, client in
            #expect(try await client.getTrip(named: Fixtures.name("ids")) == trip)
            let first = try await client.manager.connection(deadline: .now + LoopbackClient.callDeadline)
            // As if the connection had carried a billion calls: the next stream is its last.
            try await first.channel.eventLoop.submit { first.table.nextStreamID = CallTable.lastStreamID }.get()
            #expect(try await client.getTrip(named: Fixtures.name("ids")) == trip)
            #expect(!first.acceptsNewCalls)
            #expect(try await client.getTrip(named: Fixtures.name("ids")) == trip)
            let second = try await client.manager.connection(deadline: .now + LoopbackClient.callDeadline)
            #expect(second.id != first.id)
            try await first.channel.closeFuture.get()
            #expect(server.callCount == 3)
        }
    }

    @Test("a call that waited for the connection leaves no timer behind: the client is freed after its run")
    func connectionWaitLeavesNoTimer() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("waited"))
        let answer = grpcFramed(trip.serializedBytes())
        let server = try await ScriptedHTTP2Server { _ in .raw(data: answer, grpcStatus: 0) }
        weak var manager: ConnectionManager?
        do {
            let client = try FleetEngineClient(
                configuration: LoopbackClient.configuration(port: server.port), tokenProvider: NoTokenProvider())
            manager = client.manager
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.run() }
                // The first call waits for the connection to be made; its deadline is an hour away.
                let received = try await client.getTrip(
                    named: Fixtures.name("waited"), options: CallOptions(timeout: .seconds(3_600)))
                #expect(received == trip)
                client.beginGracefulShutdown()
                try await group.waitForAll()
            }
        }
        await server.close()
        // The wait's deadline timer, had it been left on the event loop, would hold the manager
        // (and itself) until the hour is up: one more for every call that ever waited.
        #expect(manager == nil)
    }

    @Test("a call after a graceful shutdown fails with UNAVAILABLE and is not retried")
    func noRetriesAfterShutdown() async throws {
        let records = RecordingLogHandler.Records()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }
        // The tests' long deadline: on a loaded machine the client's default 15 s has run out
        // before the call was even looked at, and the call ended DEADLINE_EXCEEDED.
        let client = try FleetEngineClient(
            configuration: LoopbackClient.configuration(port: 1), tokenProvider: NoTokenProvider(), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            client.beginGracefulShutdown()
            try await group.waitForAll()
        }
        let error = await fleetEngineError {
            _ = try await client.getTrip(named: Fixtures.name("late"), options: CallOptions(retryPolicy: .fleetEngine))
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("shut down") == true)
        let retries = records.all.filter { $0.text.hasPrefix("retrying") }
        #expect(retries.isEmpty, "\(retries.map(\.text))")
    }

    @Test(
        "a timeout beyond what the clocks count is taken as the longest one: the call succeeds",
        arguments: [Duration.seconds(10_000_000_000), .seconds(Int64.max)])
    func hugeTimeout(timeout: Duration) async throws {
        let trip = Fixtures.trip(named: Fixtures.name("patient"))
        let answer = grpcFramed(trip.serializedBytes())
        try await MalformedResponseTests.withScriptedServer({ _ in .raw(data: answer, grpcStatus: 0) }) {
            server, client in
            let before = ContinuousClock.now
            let received = try await client.getTrip(
                named: Fixtures.name("patient"), options: CallOptions(timeout: timeout))
            let took = ContinuousClock.now - before
            #expect(received == trip)
            // 100 years, less what the call took before its headers were built (on a machine busy
            // with the whole suite, that can be a minute), rounded up to the header's unit.
            let sent = try #require(server.requestHeaders.first?.first(name: "grpc-timeout"))
            let duration = try #require(GRPCTimeout(headerValue: sent)).duration
            #expect(
                duration >= CallOptions.longestTimeout - took && duration <= CallOptions.longestTimeout,
                "\(sent); the call took \(took)")
        }
    }

    @Test("a JWT whose exp claim no Duration can hold is taken as a thousand years away, and the call goes ahead")
    func hugeExpiryClaim() async throws {
        // {"exp":100000000000000000000000}
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjEwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMH0.c2ln"
        let expiry = try #require(TokenCache.expiryClaim(of: token))
        #expect(expiry > .seconds(900 * 365 * 86_400) && expiry < .seconds(1_100 * 365 * 86_400))
        let trip = Fixtures.trip(named: Fixtures.name("exp"))
        let answer = grpcFramed(trip.serializedBytes())
        let server = try await ScriptedHTTP2Server(script: { _ in .raw(data: answer, grpcStatus: 0) })
        try await withFleetEngineClient(
            configuration: LoopbackClient.configuration(port: server.port), tokenProvider: StaticTokenProvider(token)
        ) { client in
            let received = try await client.getTrip(named: Fixtures.name("exp"))
            #expect(received == trip)
            #expect(server.requestHeaders.first?.first(name: "authorization") == "Bearer " + token)
        }
        await server.close()
    }

    @Test("a second response message on a unary call ends the call then, without waiting for the stream's end")
    func secondMessageEndsTheCall() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("chatty"))
        let one = grpcFramed(trip.serializedBytes())
        try await MalformedResponseTests.withScriptedServer({ _ in .unending(data: one + one) }) { _, client in
            let error = await fleetEngineError {
                _ = try await client.getTrip(
                    named: Fixtures.name("chatty"), options: CallOptions(timeout: LoopbackClient.callDeadline))
            }
            #expect(error?.code == .internalError)
            #expect(error?.origin == .malformedResponse)
            #expect(error?.message == "the server sent a second response message on a unary call")
        }
    }

    @Test("a stream that ends OK without a message: INTERNAL, malformed response")
    func noMessage() async throws {
        try await MalformedResponseTests.withScriptedServer({ _ in .raw(data: [], grpcStatus: 0) }) { _, client in
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("mute")) }
            #expect(error?.code == .internalError)
            #expect(error?.origin == .malformedResponse)
            #expect(error?.message == "the call ended with status OK but without a response message")
        }
    }

    @Test(
        "page tokens that come round again end a search with INTERNAL, after the trips of every page",
        arguments: [["a", "a"], ["a", "b", "a"]])
    func pageTokensGoRound(tokens: [String]) async throws {
        let trips = tokens.indices.map { Fixtures.trip(named: Fixtures.name("page-\($0)")) }
        let pages = zip(trips, tokens).map { trip, token in
            var page = SearchTripsResponse()
            page.trips = [trip]
            page.nextPageToken = token
            return grpcFramed(page.serializedBytes())
        }
        try await MalformedResponseTests.withScriptedServer({ call in
            call <= pages.count ? .raw(data: pages[call - 1], grpcStatus: 0) : .reset(.refusedStream)
        }) { server, client in
            var search = SearchTripsRequest()
            search.parent = "providers/\(Fixtures.provider)"
            var received: [Trip] = []
            let error = await fleetEngineError {
                for try await trip in client.searchTrips(search) { received.append(trip) }
            }
            #expect(received == trips)
            #expect(error?.code == .internalError)
            #expect(error?.message.hasPrefix("the server returned page token a a second time") == true)
            #expect(server.callCount == tokens.count)
        }
    }

    @Test("a client whose endpoint host cannot go in :authority is refused when it is made, saying why")
    func badEndpointHost() throws {
        let configuration = ClientConfiguration.plaintext(host: "host with space", port: 1)
        let error = try #require(throws: FleetEngineError.self) {
            _ = try FleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider())
        }
        #expect(error.code == .invalidArgument)
        #expect(error.origin == .local)
        #expect(
            error.message.hasPrefix(
                "the configuration's endpoint, authority or user agent cannot go in a request's headers: "))
        #expect(error.message.contains(":authority"))
    }
}
