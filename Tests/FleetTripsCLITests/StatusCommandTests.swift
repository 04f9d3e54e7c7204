import ArgumentParser
import FleetEngineCodec
import FleetEngineStatus
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips status")
struct StatusCommandTests {
    /// The one JSON object of `--json` output, after checking that it is one line ending in a line feed.
    static func object(_ output: String) throws -> [String: Any] {
        #expect(output.hasSuffix("\n"))
        #expect(!output.dropLast().contains("\n"))
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(parsed as? [String: Any])
    }

    /// A JSON text as an object, to compare one printed by the command with an expected one.
    static func object(json: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary)
    }

    @Test("is a subcommand of fleettrips")
    func registered() throws {
        #expect(FleetTrips.configuration.subcommands.contains { $0 == StatusCommand.self })
        #expect(try CommandRunner.parse(["status", "14"]) is StatusCommand)
    }

    @Test("explains a code as text: name, summary, family, meaning, what to do, retry, HTTP status")
    func codeText() throws {
        #expect(
            try CommandRunner.status(["14"]) == """
                UNAVAILABLE (14): Fleet Engine could not be reached.
                family:       server-network (the library recovers by itself)
                meaning:      The service is down or overloaded, or the network between here and Fleet Engine \
                failed; usually transient.
                what to do:   Nothing: the library retries with backoff and the next refresh tries again.
                retry helps:  yes: the same request can succeed when sent again
                HTTP status:  503, as the Google Cloud error model maps this code

                """)
    }

    @Test("explains a code as one line of JSON")
    func codeJSON() throws {
        let output = try CommandRunner.status(["14", "--json"])
        let object = try Self.object(output)
        #expect(object["code"] as? Int == 14)
        #expect(object["name"] as? String == "UNAVAILABLE")
        #expect(object["family"] as? String == "server-network")
        #expect(object["summary"] as? String == "Fleet Engine could not be reached.")
        #expect(
            object["meaning"] as? String
                == "The service is down or overloaded, or the network between here and Fleet Engine failed; "
                + "usually transient.")
        #expect(
            object["recoverySuggestion"] as? String
                == "Nothing: the library retries with backoff and the next refresh tries again.")
        #expect(object["retryable"] as? Bool == true)
        #expect(object["httpStatus"] as? Int == 503)
        #expect(Set(object.keys) == Self.codeKeys)
        #expect(output.hasPrefix(#"{"code":14,"name":"UNAVAILABLE","family":"server-network","#))
    }

    static let codeKeys: Set = [
        "code", "name", "family", "summary", "meaning", "recoverySuggestion", "retryable", "httpStatus",
    ]

    @Test(
        "takes the canonical name in any case, with dashes, and CANCELED",
        arguments: [
            ("UNAVAILABLE", 14), ("unavailable", 14), ("Unavailable", 14), ("not-found", 5), ("NOT_FOUND", 5),
            ("canceled", 1), ("OK", 0), ("unauthenticated", 16),
        ])
    func names(name: String, code: Int) throws {
        #expect(try CommandRunner.status([name]) == CommandRunner.status([String(code)]))
        #expect(try Self.object(CommandRunner.status([name, "--json"]))["code"] as? Int == code)
    }

    @Test(
        "gives every defined code its name, family and Google Cloud HTTP status",
        arguments: [
            (0, "OK", "success", 200, false), (1, "CANCELLED", "server-network", 499, true),
            (3, "INVALID_ARGUMENT", "client", 400, false), (4, "DEADLINE_EXCEEDED", "server-network", 504, true),
            (6, "ALREADY_EXISTS", "conflict", 409, false), (8, "RESOURCE_EXHAUSTED", "client", 429, false),
            (9, "FAILED_PRECONDITION", "conflict", 400, false), (10, "ABORTED", "server-network", 409, true),
            (12, "UNIMPLEMENTED", "service-fault", 501, false), (13, "INTERNAL", "service-fault", 500, false),
            (15, "DATA_LOSS", "service-fault", 500, false), (16, "UNAUTHENTICATED", "client", 401, false),
        ])
    func table(code: Int, name: String, family: String, httpStatus: Int, retryable: Bool) throws {
        let object = try Self.object(CommandRunner.status([String(code), "--json"]))
        #expect(object["name"] as? String == name)
        #expect(object["family"] as? String == family)
        #expect(object["httpStatus"] as? Int == httpStatus)
        #expect(object["retryable"] as? Bool == retryable)
    }

    @Test("a number gRPC does not define keeps its number, has no name, and is explained as UNKNOWN")
    func undefinedCode() throws {
        let object = try Self.object(CommandRunner.status(["20", "--json"]))
        #expect(object["code"] as? Int == 20)
        #expect(object["name"] is NSNull)
        #expect(object["family"] as? String == "service-fault")
        #expect(object["httpStatus"] as? Int == 500)
        #expect(object["retryable"] as? Bool == false)
        #expect(object["summary"] as? String == StatusCode.unknown.summary)
        let unknown = StatusCode.unknown
        #expect(
            try CommandRunner.status(["20"]) == """
                CODE_20 (20): \(unknown.summary)
                note:         20 is not a code gRPC defines (0 to 16); it counts as UNKNOWN
                family:       service-fault (the service failed; the caller cannot correct it)
                meaning:      \(unknown.meaning)
                what to do:   \(unknown.recoverySuggestion)
                retry helps:  no: retrying is not known to fix it
                HTTP status:  500, as the Google Cloud error model maps this code

                """)
    }

    @Test("explains the code gRPC maps an HTTP status to, and says which it was")
    func httpStatusJSON() throws {
        let object = try Self.object(CommandRunner.status(["--http", "429", "--json"]))
        #expect(object["code"] as? Int == 14)
        #expect(object["name"] as? String == "UNAVAILABLE")
        #expect(object["family"] as? String == "server-network")
        #expect(object["httpStatus"] as? Int == 503)
        #expect(object["httpStatusIn"] as? Int == 429)
        #expect(object["retryable"] as? Bool == true)
        #expect(Set(object.keys) == Self.codeKeys.union(["httpStatusIn"]))
    }

    @Test("shows the HTTP status given as a line of its own")
    func httpStatusText() throws {
        let code = StatusCode.unimplemented
        #expect(
            try CommandRunner.status(["--http", "404"]) == """
                UNIMPLEMENTED (12): \(code.summary)
                from HTTP:    404, by gRPC's mapping for a response without grpc-status
                family:       service-fault (the service failed; the caller cannot correct it)
                meaning:      \(code.meaning)
                what to do:   \(code.recoverySuggestion)
                retry helps:  no: retrying is not known to fix it
                HTTP status:  501, as the Google Cloud error model maps this code

                """)
    }

    @Test("says what to do about each family when a retry does not help")
    func retryAdvice() throws {
        let lines = try [0, 5, 8, 9].map { code in
            try CommandRunner.status([String(code)]).split(separator: "\n").first { $0.hasPrefix("retry helps:") }
        }
        #expect(
            lines == [
                "retry helps:  no: nothing failed",
                "retry helps:  no: the same request fails again until the caller changes something",
                "retry helps:  not before the server says when (a RetryInfo detail); slow down",
                "retry helps:  no: the same request fails again until the trip's state allows it",
            ])
    }
}
