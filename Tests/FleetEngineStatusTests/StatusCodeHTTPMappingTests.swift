import FleetEngineStatus
import Testing

@Suite("StatusCode and HTTP status")
struct StatusCodeHTTPMappingTests {
    /// gRPC's doc/http-grpc-status-mapping.md, plus 431 and 1xx as grpc-java reads them, and a
    /// sample of the statuses that fall to UNKNOWN.
    static let fromHTTP: [(Int, StatusCode)] = [
        (100, .internalError),
        (101, .internalError),
        (103, .internalError),
        (199, .internalError),
        (200, .unknown),
        (204, .unknown),
        (301, .unknown),
        (400, .internalError),
        (401, .unauthenticated),
        (402, .unknown),
        (403, .permissionDenied),
        (404, .unimplemented),
        (405, .unknown),
        (408, .unknown),
        (409, .unknown),
        (418, .unknown),
        (429, .unavailable),
        (431, .internalError),
        (499, .unknown),
        (500, .unknown),
        (501, .unknown),
        (502, .unavailable),
        (503, .unavailable),
        (504, .unavailable),
        (505, .unknown),
        (0, .unknown),
        (-1, .unknown),
        (99, .unknown),
        (600, .unknown),
        (999, .unknown),
    ]

    @Test(arguments: fromHTTP)
    func responseWithoutGrpcStatusMapsFromItsHTTPStatus(httpStatus: Int, expected: StatusCode) {
        #expect(StatusCode(httpStatus: httpStatus) == expected)
    }

    /// google/rpc/code.proto's HTTP mapping, every code.
    static let toHTTP: [(StatusCode, Int)] = [
        (.ok, 200),
        (.cancelled, 499),
        (.unknown, 500),
        (.invalidArgument, 400),
        (.deadlineExceeded, 504),
        (.notFound, 404),
        (.alreadyExists, 409),
        (.permissionDenied, 403),
        (.resourceExhausted, 429),
        (.failedPrecondition, 400),
        (.aborted, 409),
        (.outOfRange, 400),
        (.unimplemented, 501),
        (.internalError, 500),
        (.unavailable, 503),
        (.dataLoss, 500),
        (.unauthenticated, 401),
    ]

    @Test(arguments: toHTTP)
    func codeAnswersWithGoogleCloudHTTPStatus(code: StatusCode, expected: Int) {
        #expect(code.httpStatus == expected)
    }

    @Test func toHTTPTableCoversEveryKnownCode() {
        #expect(Self.toHTTP.map(\.0) == StatusCode.allKnown)
    }

    @Test(arguments: [-1, 17, 42, 1000])
    func unknownCodeAnswersAs500(number: Int) {
        #expect(StatusCode(rawValue: number).httpStatus == 500)
    }

    @Test func theTwoTablesAreNotInverses() {
        // NOT_FOUND is served as 404, but a bare 404 from a proxy means the method is not there.
        #expect(StatusCode(httpStatus: StatusCode.notFound.httpStatus) == .unimplemented)
        #expect(StatusCode(httpStatus: StatusCode.unavailable.httpStatus) == .unavailable)
    }
}
