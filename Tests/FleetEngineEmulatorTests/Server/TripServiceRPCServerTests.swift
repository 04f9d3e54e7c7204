import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore
import GRPCNIOTransportHTTP2
import Testing

@testable import FleetEngineEmulator

@Suite("TripService over gRPC on 127.0.0.1: the six methods and their errors")
struct TripServiceRPCServerTests {
    static let name = ServiceFixtures.name("trip-1")

    @Test("each of the six methods answers over gRPC exactly as the service does")
    func sixMethods() async throws {
        try await withEmulatorAndClient { emulator, client in
            let created: Trip = try await client.call(
                .createTrip,
                ServiceFixtures.createRequest(tripID: "trip-1", trip: ServiceFixtures.tripToCreate(vehicleID: "v-1")))
            #expect(created.name == Self.name)
            #expect(created.tripStatus == .new)

            var get = GetTripRequest()
            get.name = Self.name
            let fetched: Trip = try await client.call(.getTrip, get)
            #expect(fetched == (try emulator.service.getTrip(get)))
            #expect(fetched == created)

            var update = UpdateTripRequest()
            update.name = Self.name
            var change = Trip()
            change.tripStatus = .enrouteToPickup
            update.trip = change
            var mask = FieldMask()
            mask.paths = ["trip_status"]
            update.updateMask = mask
            let updated: Trip = try await client.call(.updateTrip, update)
            #expect(updated.tripStatus == .enrouteToPickup)
            #expect(updated == (try emulator.service.getTrip(get)))

            let found: SearchTripsResponse = try await client.call(
                .searchTrips, SearchTripsServiceTests.request(vehicleID: "v-1"))
            #expect(found.trips == [updated])
            #expect(found.nextPageToken == "")

            let report = ReportBillableTripServiceTests.report("trip-1", country: "US")
            let reported: Empty = try await client.call(.reportBillableTrip, report)
            #expect(reported == Empty())
            #expect(emulator.billingReports == [report])

            change.tripStatus = .complete
            update.trip = change
            let _: Trip = try await client.call(.updateTrip, update)
            var delete = DeleteTripRequest()
            delete.name = Self.name
            let deleted: Empty = try await client.call(.deleteTrip, delete)
            #expect(deleted == Empty())
            #expect(fleetEngineError { try emulator.service.getTrip(get) }?.code == .notFound)
        }
    }

    /// Failing requests, each sent over gRPC and straight to the service.
    enum FailingCall: String, CaseIterable, CustomTestStringConvertible {
        case getMissing, getMalformed, createDuplicate, createWithoutPickup, updateEmptyMask, updateOutputOnly
        case searchBadToken, deleteActive, reportWithoutCountry

        var testDescription: String { rawValue }

        var expectedCode: StatusCode {
            switch self {
            case .getMissing: .notFound
            case .createDuplicate: .alreadyExists
            case .deleteActive: .failedPrecondition
            default: .invalidArgument
            }
        }

        func send(_ client: TripServiceClient) async -> FleetEngineError? {
            switch self {
            case .getMissing, .getMalformed:
                return await client.failure(.getTrip, getRequest, returning: Trip.self)
            case .createDuplicate, .createWithoutPickup:
                return await client.failure(.createTrip, createRequest, returning: Trip.self)
            case .updateEmptyMask, .updateOutputOnly:
                return await client.failure(.updateTrip, updateRequest, returning: Trip.self)
            case .searchBadToken:
                return await client.failure(.searchTrips, searchRequest, returning: SearchTripsResponse.self)
            case .deleteActive:
                return await client.failure(.deleteTrip, deleteRequest, returning: Empty.self)
            case .reportWithoutCountry:
                return await client.failure(.reportBillableTrip, reportRequest, returning: Empty.self)
            }
        }

        func call(_ service: TripServiceCore) -> FleetEngineError? {
            switch self {
            case .getMissing, .getMalformed: fleetEngineError { try service.getTrip(getRequest) }
            case .createDuplicate, .createWithoutPickup: fleetEngineError { try service.createTrip(createRequest) }
            case .updateEmptyMask, .updateOutputOnly: fleetEngineError { try service.updateTrip(updateRequest) }
            case .searchBadToken: fleetEngineError { try service.searchTrips(searchRequest) }
            case .deleteActive: fleetEngineError { try service.deleteTrip(deleteRequest) }
            case .reportWithoutCountry: fleetEngineError { try service.reportBillableTrip(reportRequest) }
            }
        }

        var getRequest: GetTripRequest {
            var request = GetTripRequest()
            request.name = self == .getMissing ? ServiceFixtures.name("ghost") : "providers/test-project/trip/x"
            return request
        }

        var createRequest: CreateTripRequest {
            var trip = ServiceFixtures.tripToCreate()
            if self == .createWithoutPickup { trip.pickupPoint = nil }
            return ServiceFixtures.createRequest(tripID: self == .createDuplicate ? "trip-1" : "new", trip: trip)
        }

        var updateRequest: UpdateTripRequest {
            var request = UpdateTripRequest()
            request.name = TripServiceRPCServerTests.name
            request.trip = Trip()
            var mask = FieldMask()
            mask.paths = self == .updateOutputOnly ? ["route"] : []
            request.updateMask = mask
            return request
        }

        var searchRequest: SearchTripsRequest {
            SearchTripsServiceTests.request(pageToken: "???")
        }

        var deleteRequest: DeleteTripRequest {
            var request = DeleteTripRequest()
            request.name = TripServiceRPCServerTests.name
            return request
        }

        var reportRequest: ReportBillableTripRequest {
            ReportBillableTripServiceTests.report("trip-1", country: "")
        }
    }

    @Test(
        "a failed call arrives with its code, message and details decoded from grpc-status-details-bin",
        arguments: FailingCall.allCases)
    func errorsArriveWithDetails(_ failing: FailingCall) async throws {
        try await withEmulatorAndClient { emulator, client in
            _ = try emulator.service.createTrip(
                ServiceFixtures.createRequest(tripID: "trip-1", trip: ServiceFixtures.tripToCreate(vehicleID: "v-1")))
            let direct = try #require(failing.call(emulator.service))
            let overGRPC = try #require(await failing.send(client))
            #expect(overGRPC.code == failing.expectedCode)
            #expect(overGRPC.code == direct.code)
            #expect(overGRPC.message == direct.message)
            #expect(overGRPC.details == direct.details)
            #expect(!overGRPC.details.isEmpty)
            #expect(overGRPC.statusDetailsProblem == nil)
            #expect(overGRPC.rpcStatus?.code == Int32(direct.code.rawValue))
        }
    }

    @Test("a moving trip is served incrementally over gRPC: held versions leave the route out")
    func incrementalFetchOverGRPC() async throws {
        let clock = ManualTimeSource(start: ServiceHarness.time(0))
        try await withEmulatorAndClient(time: clock) { emulator, client in
            let name = try #require(try emulator.simulate(providerID: "test-project", count: 1, seed: 3).first)
            clock.advance(by: .seconds(40))
            let full = try await client.getTrip(name)
            #expect(!full.route.isEmpty)
            clock.advance(by: .seconds(1))
            var request = GetTripRequest()
            request.name = name
            IncrementalMerge.ask(&request, holding: full, .withoutDeprecated)
            let answer: Trip = try await client.call(.getTrip, request)
            #expect(answer == (try emulator.service.getTrip(request)))
            #expect(IncrementalMerge.merge(answer, into: full, .withoutDeprecated) == (try await client.getTrip(name)))
        }
    }

    @Test("a method the service does not have is UNIMPLEMENTED")
    func unknownMethodIsUnimplemented() async throws {
        try await withEmulatorAndClient { _, client in
            do {
                _ = try await client.client.unary(
                    request: ClientRequest(message: GetTripRequest()),
                    descriptor: MethodDescriptor(
                        fullyQualifiedService: TripServiceMethod.serviceName, method: "ListTrips"),
                    serializer: CodecMessageSerializer<GetTripRequest>(),
                    deserializer: CodecMessageDeserializer<Trip>(),
                    options: .defaults
                ) { try $0.message }
                Issue.record("an unknown method answered")
            } catch let error as RPCError {
                #expect(error.code == .unimplemented)
            }
        }
    }

    /// Writes fixed bytes whatever the message, to send what no TripService request decodes from.
    struct RawBytesSerializer: MessageSerializer {
        var bytes: [UInt8]

        func serialize<Bytes: GRPCContiguousBytes>(_ message: GetTripRequest) throws -> Bytes {
            Bytes(bytes)
        }
    }

    @Test("a request that does not decode is INTERNAL, naming the message type")
    func undecodableRequestIsInternal() async throws {
        try await withEmulatorAndClient { _, client in
            do {
                // Field 1 (name) as a length-delimited string that claims more bytes than follow.
                _ = try await client.client.unary(
                    request: ClientRequest(message: GetTripRequest()),
                    descriptor: MethodDescriptor(
                        fullyQualifiedService: TripServiceMethod.serviceName, method: "GetTrip"),
                    serializer: RawBytesSerializer(bytes: [0x1A, 0x7F, 0x61]),
                    deserializer: CodecMessageDeserializer<Trip>(),
                    options: .defaults
                ) { try $0.message }
                Issue.record("an undecodable request was answered")
            } catch let error as RPCError {
                #expect(error.code == .internalError)
                #expect(error.message.hasPrefix("maps.fleetengine.v1.GetTripRequest could not be decoded: "))
            }
        }
    }
}
