import FleetEngineAuth
import FleetEngineCodec
import FleetEngineGRPCCore
import FleetEngineStatus
import GRPCCore

/// The TripService on grpc-swift's server: each of the six methods, with our codec as its
/// serializer, behind the emulator's faults, authorization, rate limit and quota.
///
/// For every call, in order: an injected failure (``FaultPlan/failEvery``), the injected delay, the
/// token (UNAUTHENTICATED when it does not verify; checked from the headers before the request
/// message is decoded, so an unauthenticated caller's message is never decoded), the request's
/// trip names (INVALID_ARGUMENT when
/// malformed), the caller's rights (PERMISSION_DENIED), the per-token rate limit and then the
/// project's quota (both RESOURCE_EXHAUSTED), then the service itself (``TripServiceCore``). Every
/// failure goes out as its `FleetEngineError`, with the details in `grpc-status-details-bin`.
struct TripServiceRPC: RegistrableRPCService {
    let core: TripServiceCore
    let policy: AccessPolicy
    let faults: FaultInjector
    let quota: ProjectQuota
    /// The limits each request is decoded within (``EmulatorConfiguration/maxRequestMessageSize``
    /// and ``EmulatorConfiguration/maxDecodedRequestSize``).
    let decoding: DecodingOptions

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let core = self.core
        register(.createTrip, in: &router, tripNames: { [$0.parent + "/trips/" + $0.tripID] }) {
            (request: CreateTripRequest) throws(FleetEngineError) in try core.createTrip(request)
        }
        register(.getTrip, in: &router, tripNames: { [$0.name] }) {
            (request: GetTripRequest) throws(FleetEngineError) in try core.getTrip(request)
        }
        register(.updateTrip, in: &router, tripNames: { [$0.name] }) {
            (request: UpdateTripRequest) throws(FleetEngineError) in try core.updateTrip(request)
        }
        register(.searchTrips, in: &router, tripNames: { _ in [] }) {
            (request: SearchTripsRequest) throws(FleetEngineError) in try core.searchTrips(request)
        }
        register(.deleteTrip, in: &router, tripNames: { [$0.name] }) {
            (request: DeleteTripRequest) throws(FleetEngineError) in try core.deleteTrip(request)
        }
        register(.reportBillableTrip, in: &router, tripNames: { [$0.name] }) {
            (request: ReportBillableTripRequest) throws(FleetEngineError) in try core.reportBillableTrip(request)
        }
    }

    private func register<Input: ProtobufMessage, Output: ProtobufMessage, Transport: ServerTransport>(
        _ method: TripServiceMethod,
        in router: inout RPCRouter<Transport>,
        tripNames: @escaping @Sendable (Input) -> [String],
        body: @escaping @Sendable (Input) throws(FleetEngineError) -> Output
    ) {
        let policy = self.policy
        let faults = self.faults
        let quota = self.quota
        router.registerHandler(
            forMethod: MethodDescriptor(fullyQualifiedService: TripServiceMethod.serviceName, method: method.name),
            deserializer: CodecMessageDeserializer<Input>(options: decoding),
            serializer: CodecMessageSerializer<Output>()
        ) { streamingRequest, context in
            // The request message is decoded only when its sequence is read (ServerRequest(stream:)):
            // everything that needs only the headers comes first.
            let authenticated: Result<FleetEngineClaims?, FleetEngineError> = await {
                do throws(FleetEngineError) {
                    let call = try faults.injectFailure()
                    try await faults.delay(call, cancellation: context.cancellation)
                    return .success(
                        try policy.authenticate(
                            method: method, authorization: AccessPolicy.authorization(in: streamingRequest.metadata)))
                } catch {
                    return .failure(error)
                }
            }()
            let claims: FleetEngineClaims?
            switch authenticated {
            case .success(let verified): claims = verified
            case .failure(let refusal):
                return StreamingServerResponse(single: ServerResponse(error: RPCError(refusal)))
            }
            let request = try await ServerRequest(stream: streamingRequest)
            let outcome: Result<Output, FleetEngineError> = {
                do throws(FleetEngineError) {
                    let names = tripNames(request.message)
                    try Self.checkNames(names, method: method)
                    if let claims { try policy.authorize(method: method, tripNames: names, claims: claims) }
                    try faults.admit(caller: AccessPolicy.authorization(in: request.metadata) ?? "")
                    try quota.admit()
                    return .success(try body(request.message))
                } catch {
                    return .failure(error)
                }
            }()
            switch outcome {
            case .success(let output):
                return StreamingServerResponse(single: ServerResponse(message: output))
            case .failure(let error):
                return StreamingServerResponse(single: ServerResponse(error: RPCError(error)))
            }
        }
    }

    /// A malformed trip name is INVALID_ARGUMENT. Only a caller whose token verified gets here (the
    /// token is checked before the request is decoded): an unauthenticated caller learns nothing
    /// about the request.
    private static func checkNames(_ names: [String], method: TripServiceMethod) throws(FleetEngineError) {
        for name in names {
            do throws(FleetEngineError) {
                switch method {
                case .createTrip: _ = try TripName(parsing: name, field: "trip_id")
                case .reportBillableTrip: _ = try BillableTripName(parsing: name)
                default: _ = try TripName(parsing: name)
                }
            } catch {
                if method == .createTrip {
                    // CreateTrip's parent and trip id are checked by the service, field by field.
                    return
                }
                throw error
            }
        }
    }
}
