import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import FleetEngineWire
import Foundation
import NIOCore
import NIOHTTP2
import Testing

@Suite("Responses no correct server sends: each is a typed error, and a refused stream is sent again")
struct MalformedResponseTests {
    static func withScriptedServer(
        retryPolicy: RetryPolicy = .none,
        maxConcurrentStreams: Int? = nil,
        validatesHeaders: Bool = true,
        maxDecodedResponseSize: Int? = nil,
        _ script: @escaping @Sendable (Int) -> ScriptedHTTP2Server.Response,
        _ body: @Sendable (ScriptedHTTP2Server, FleetEngineClient) async throws -> Void
    ) async throws {
        let server = try await ScriptedHTTP2Server(
            maxConcurrentStreams: maxConcurrentStreams, validatesHeaders: validatesHeaders, script: script)
        var configuration = LoopbackClient.configuration(port: server.port)
        configuration.retryPolicy = retryPolicy
        if let maxDecodedResponseSize { configuration.maxDecodedResponseSize = maxDecodedResponseSize }
        do {
            try await withFleetEngineClient(configuration: configuration, tokenProvider: NoTokenProvider()) { client in
                try await body(server, client)
            }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    @Test("a message the codec rejects: INTERNAL, malformed response, the codec's error as the cause")
    func undecodableMessage() async throws {
        // Field 1 as a length-delimited string claiming 100 bytes that are not there.
        let garbage = grpcFramed([0x0A, 0x64, 0x41])
        try await Self.withScriptedServer({ _ in .raw(data: garbage, grpcStatus: 0) }) { _, client in
            let error = try #require(
                await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(error.code == .internalError)
            #expect(error.origin == .malformedResponse)
            #expect(error.cause is CodecError)
        }
    }

    @Test("a response that would decode past maxDecodedResponseSize: RESOURCE_EXHAUSTED, the codec's error as cause")
    func responsePastTheDecodedSizeLimit() async throws {
        // A Trip of 10,000 empty route points: 20,000 bytes on the wire, 683,792 in protobuf-c and 240,032 as its
        // route's array (923,824 in all), so 900,000 is enough for the C and not for the array.
        let points = grpcFramed(Array([[UInt8]](repeating: [0x4A, 0x00], count: 10_000).joined()))
        try await Self.withScriptedServer(maxDecodedResponseSize: 900_000, { _ in .raw(data: points, grpcStatus: 0) }) {
            _, client in
            let error = try #require(
                await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(error.code == .resourceExhausted)
            #expect(error.origin == .malformedResponse)
            let cause = try #require(error.cause as? CodecError)
            #expect(cause.code == .resourceExhausted)
            #expect(cause.fieldPath == "maps.fleetengine.v1.Trip.route")
        }
    }

    @Test("two messages for a unary call: INTERNAL")
    func twoMessages() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("a"))
        let one = grpcFramed(trip.serializedBytes())
        try await Self.withScriptedServer({ _ in .raw(data: one + one, grpcStatus: 0) }) { _, client in
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
            #expect(error?.code == .internalError)
            #expect(error?.origin == .malformedResponse)
        }
    }

    @Test("REFUSED_STREAM was never processed: even a create is sent again at once, with retries off")
    func refusedStreamIsSentAgain() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("created"))
        let answer = grpcFramed(trip.serializedBytes())
        try await Self.withScriptedServer({ call in
            call == 1 ? .reset(.refusedStream) : .raw(data: answer, grpcStatus: 0)
        }) { server, client in
            let created = try await client.createTrip(Fixtures.create("created"))
            #expect(created == trip)
            #expect(server.callCount == 2)
        }
    }

    @Test(
        "GOAWAY below an in-flight call: the earlier call finishes on the old connection, the later one is sent on a new one"
    )
    func goAwayBelowAnInFlightCall() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("g"))
        let answer = grpcFramed(trip.serializedBytes())
        try await Self.withScriptedServer({ call in
            switch call {
            case 1: .delayed(.raw(data: answer, grpcStatus: 0), by: .milliseconds(300))
            case 2: .goAwayBeforeThisStream
            default: .raw(data: answer, grpcStatus: 0)
            }
        }) { server, client in
            async let first = client.getTrip(named: Fixtures.name("g"))
            // The first call is on the server (its answer delayed) before the second is made.
            #expect(await waitUntil { server.callCount == 1 })
            let second = try await client.getTrip(named: Fixtures.name("g"))
            #expect(try await first == trip)
            #expect(second == trip)
            #expect(server.callCount == 3)
        }
    }

    @Test("a connection that received GOAWAY is closed by the client once its last call ends, not kept open")
    func goAwayConnectionIsClosedWhenIdle() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("g"))
        let answer = grpcFramed(trip.serializedBytes())
        // The server sends GOAWAY and leaves the connection open, as RFC 9113 section 6.8 allows:
        // the client must not leave it open for ever beside the new one.
        try await Self.withScriptedServer({ call in
            call == 2 ? .goAwayBeforeThisStream : .raw(data: answer, grpcStatus: 0)
        }) { server, client in
            let first = try await client.getTrip(named: Fixtures.name("g"))
            let second = try await client.getTrip(named: Fixtures.name("g"))
            #expect(first == trip)
            #expect(second == trip)
            #expect(server.callCount == 3)
            // The close travels to the server asynchronously: wait for it.
            #expect(await waitUntil { server.openConnections == 1 })
        }
    }

    @Test("a server that allows 2 streams at once gets at most 2; the other calls wait their turn and succeed")
    func streamLimitIsHonoured() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("limited"))
        let answer = grpcFramed(trip.serializedBytes())
        try await Self.withScriptedServer(
            maxConcurrentStreams: 2,
            { _ in
                .delayed(.raw(data: answer, grpcStatus: 0), by: .milliseconds(50))
            }
        ) { server, client in
            // The first call makes the connection, so the server's SETTINGS are known to the rest.
            #expect(try await client.getTrip(named: Fixtures.name("limited")) == trip)
            try await withThrowingTaskGroup(of: Trip.self) { group in
                for _ in 0..<10 { group.addTask { try await client.getTrip(named: Fixtures.name("limited")) } }
                for try await received in group { #expect(received == trip) }
            }
            #expect(server.callCount == 11)
            #expect(server.peakOpenCalls == 2)
        }
    }

    @Test("a call held back by the stream limit when the connection closes was never sent: even a delete is resent")
    func heldBackCallIsResent() async throws {
        let empty = grpcFramed([])
        try await Self.withScriptedServer(
            maxConcurrentStreams: 1,
            { call in call == 1 ? .delayed(.closeConnection, by: .seconds(1)) : .raw(data: empty, grpcStatus: 0) }
        ) { server, client in
            async let first = fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
            // The first call holds the one stream before the second starts.
            #expect(await waitUntil { server.callCount == 1 })
            // The server allows one stream: this call waits behind the first, and the connection
            // closes before its HEADERS could be sent. DeleteTrip is not retried, but a request
            // that never left the client is sent again at once (gRPC's transparent retry).
            let second = await fleetEngineError { try await client.deleteTrip(named: Fixtures.name("b")) }
            #expect(second == nil)
            let failure = await first
            #expect(failure?.code == .unavailable)
            #expect(failure?.requestWasProcessed == true)
            #expect(server.callCount == 2)
        }
    }

    @Test(
        "RST_STREAM codes map as gRPC specifies",
        arguments: [
            (NIOHTTP2.HTTP2ErrorCode.cancel, StatusCode.cancelled), (.enhanceYourCalm, .resourceExhausted),
            (.inadequateSecurity, .permissionDenied), (.internalError, .internalError),
        ])
    func resetCodes(reset: NIOHTTP2.HTTP2ErrorCode, expected: StatusCode) async throws {
        try await Self.withScriptedServer({ _ in .reset(reset) }) { _, client in
            let error = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
            #expect(error?.code == expected)
        }
    }

    @Test("HTTP 503 without grpc-status: UNAVAILABLE from the HTTP status; 401: UNAUTHENTICATED")
    func httpStatusWithoutGRPCStatus() async throws {
        try await Self.withScriptedServer({ call in
            .headersOnly(status: call == 1 ? "503" : "401", fields: [("content-type", "text/plain")])
        }) { _, client in
            let unavailable = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
            #expect(unavailable?.code == .unavailable)
            #expect(unavailable?.origin == .httpStatus(503))
            let unauthenticated = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) }
            #expect(unauthenticated?.code == .unauthenticated)
        }
    }

    @Test("a Trailers-Only answer with status details: the code, the message and the details")
    func trailersOnlyWithDetails() async throws {
        var info = ErrorInfo()
        info.reason = "TRIP_NOT_FOUND"
        info.domain = "fleetengine.googleapis.com"
        var any = AnyMessage()
        any.typeURL = "type.googleapis.com/google.rpc.ErrorInfo"
        any.value = info.serializedBytes()
        var status = RPCStatus()
        status.code = 5
        status.message = "no such trip"
        status.details = [any]
        let encoded = Data(status.serializedBytes()).base64EncodedString()
        let expectedInfo = info
        try await Self.withScriptedServer({ _ in
            .headersOnly(
                status: "200",
                fields: [
                    ("content-type", "application/grpc"), ("grpc-status", "5"), ("grpc-message", "no%20such%20trip"),
                    ("grpc-status-details-bin", encoded),
                ])
        }) { _, client in
            let error = try #require(await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("a")) })
            #expect(error.code == .notFound)
            #expect(error.message == "no such trip")
            #expect(error.details == [.errorInfo(expectedInfo)])
        }
    }

    /// Header blocks that break RFC 9113 section 8, and the status each must give. swift-nio-http2's
    /// checks of incoming blocks are off in the client, and the Wire layer checks them as it checks a
    /// capture: a malformed response is not accepted (RFC 9113 section 8.1.1), and the call ends
    /// INTERNAL, the status PROTOCOL-HTTP2 "Errors" gives PROTOCOL_ERROR (as grpc-go reports such a
    /// block), whatever `grpc-status` the block holds. (With swift-nio-http2's checks on, each such
    /// block closed the whole connection, failing every call on it with UNAVAILABLE.)
    static let malformedBlocks: [(name: String, fields: [(String, String)], code: StatusCode)] = [
        ("no :status", [("content-type", "application/grpc"), ("grpc-status", "5")], .internalError),
        (
            "upper-case names", [(":status", "200"), ("Content-Type", "application/grpc"), ("Grpc-Status", "5")],
            .internalError
        ),
        (
            "a pseudo-header after regular fields", [("content-type", "application/grpc"), (":status", "200")],
            .internalError
        ),
        (
            "a request pseudo-header", [(":status", "200"), (":path", "/x"), ("content-type", "application/grpc")],
            .internalError
        ),
        (
            "a connection header", [(":status", "200"), ("connection", "close"), ("grpc-status", "7")],
            .internalError
        ),
        (
            "two :status", [(":status", "200"), (":status", "503"), ("content-type", "application/grpc")],
            .internalError
        ),
    ]

    @Test("malformed response header blocks end the call with a typed status", arguments: malformedBlocks.indices)
    func malformedHeaderBlock(index: Int) async throws {
        let block = Self.malformedBlocks[index]
        try await Self.withScriptedServer(validatesHeaders: false, { _ in .headerBlock(block.fields) }) { _, client in
            for tripID in ["a", "b"] {
                // The first call, then the next on the same client: only a call is lost each time.
                let error = try #require(
                    await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name(tripID)) })
                #expect(error.code == block.code, "\(block.name): \(error)")
            }
        }
    }

    @Test("a malformed header block fails its own call only: a call in flight on the same connection finishes")
    func malformedBlockSparesOtherCalls() async throws {
        let trip = Fixtures.trip(named: Fixtures.name("m"))
        let answer = grpcFramed(trip.serializedBytes())
        try await Self.withScriptedServer(
            validatesHeaders: false,
            { call in
                call == 1
                    ? .delayed(.raw(data: answer, grpcStatus: 0), by: .milliseconds(300))
                    : .headerBlock([("content-type", "application/grpc"), ("grpc-status", "0")])
            }
        ) { server, client in
            async let first = client.getTrip(named: Fixtures.name("m"))
            #expect(await waitUntil { server.callCount == 1 })
            let second = await fleetEngineError { _ = try await client.getTrip(named: Fixtures.name("m")) }
            #expect(second?.code == .internalError)
            let received = try await first
            #expect(received == trip)
            #expect(server.callCount == 2)
        }
    }
}
