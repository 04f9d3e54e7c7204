import FleetTripsInput
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips status arguments")
struct StatusArgumentTests {
    static let names =
        "OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS, "
        + "PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED, "
        + "INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED"

    @Test(
        "refuses what is not a status, saying why, with exit status 64",
        arguments: [
            (["UNAVAILBLE"], "'UNAVAILBLE' is not a status code; did you mean UNAVAILABLE?"),
            (["deadline"], "'deadline' is not a status code; did you mean DEADLINE_EXCEEDED?"),
            (["foo"], "'foo' is not a status code; give a number or one of \(names)"),
            (["1.5"], "'1.5' is not a status code; give a number or one of \(names)"),
            (["-1"], "status code -1 is negative; gRPC's codes are 0 to 16"),
            (["--", "-7"], "status code -7 is negative; gRPC's codes are 0 to 16"),
            (["--json", "-1"], "status code -1 is negative; gRPC's codes are 0 to 16"),
            (["2147483648"], "status code 2147483648 is too large; google.rpc.Status holds codes up to 2147483647"),
            (["14", "--http", "503"], "give a status code or --http, not both"),
            ([], "give a status code (14 or UNAVAILABLE), --http <http-status> or --details-bin <base64>"),
            (["--json"], "give a status code (14 or UNAVAILABLE), --http <http-status> or --details-bin <base64>"),
            (["--http", "42"], "--http 42 is not an HTTP status; give a number from 100 to 599"),
            (["--http", "-5"], "--http -5 is not an HTTP status; give a number from 100 to 599"),
            (["--http", "abc"], "The value 'abc' is invalid for '--http <http-status>'"),
            (["14", "15"], "Unexpected argument '15'; give one status code"),
            (["14", "-x"], "Unknown option '-x'"),
            (["--verbose"], "Unknown option '--verbose'"),
            // An unset "$DETAILS_BIN" must not be explained as a status saying OK.
            (["--details-bin", ""], "--details-bin is empty; give the grpc-status-details-bin value (base64)"),
            (["--details-bin", " \n"], "--details-bin is empty; give the grpc-status-details-bin value (base64)"),
            (["5", "--details-bin", ""], "--details-bin is empty; give the grpc-status-details-bin value (base64)"),
        ])
    func rejected(arguments: [String], message: String) throws {
        let report = try ArgumentValidationTests.rejection(["status"] + arguments)
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test(
        "a --details-bin that is not base64 of a google.rpc.Status says what the codec found",
        arguments: [
            (
                "CAg!",
                "--details-bin is not base64 of a google.rpc.Status: invalid base64: '!' at index 3 is not "
                    + "a base64 character"
            ),
            (
                "CAUSBWJvb20",
                "--details-bin is not base64 of a google.rpc.Status: length past end: field 2 claims 5 bytes but "
                    + "only 4 remain (byte offset 3, field 2, at google.rpc.Status.message)"
            ),
            (
                "/w",
                "--details-bin is not base64 of a google.rpc.Status: truncated: input ends inside a varint (tag) "
                    + "(byte offset 0, at google.rpc.Status)"
            ),
        ])
    func rejectedDetails(value: String, message: String) throws {
        let report = try ArgumentValidationTests.rejection(["status", "--details-bin", value])
        #expect(report.message == message)
        #expect(report.exitCode == 64)
    }

    @Test("the library refuses a bad value with the codec's error as the cause")
    func explanationError() throws {
        let error = try #require(throws: FleetTripsError(.invalidMessage)) {
            try StatusExplanation(code: nil, httpStatus: nil, grpcStatusDetailsBin: "CAUSBWJvb20")
        }
        #expect(error.message == "--details-bin is not base64 of a google.rpc.Status")
        #expect(error.cause != nil)
    }

    @Test("--details-bin takes a value that starts with a dash (URL-safe base64)")
    func dashValue() throws {
        // "-_8" is URL-safe base64 of 0xfb 0xff: a value, not an option, though the codec refuses it.
        let report = try ArgumentValidationTests.rejection(["status", "--details-bin", "-_8"])
        #expect(report.message.hasPrefix("--details-bin is not base64 of a google.rpc.Status: "))
    }
}
