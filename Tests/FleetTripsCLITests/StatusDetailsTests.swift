import FleetEngineCodec
import FleetEngineStatus
import FleetEngineTestSupport
import Foundation
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips status --details-bin")
struct StatusDetailsTests {
    @Test("alone, explains the google.rpc.Status's code and prints its message and details as Any JSON")
    func detailsJSON() throws {
        let output = try CommandRunner.status([
            "--details-bin", StatusSamples.base64(StatusSamples.quotaStatus), "--json",
        ])
        let object = try StatusCommandTests.object(output)
        #expect(object["code"] as? Int == 8)
        #expect(object["name"] as? String == "RESOURCE_EXHAUSTED")
        #expect(object["family"] as? String == "client")
        #expect(object["httpStatus"] as? Int == 429)
        #expect(object["retryable"] as? Bool == true)
        #expect(object["retryDelay"] as? String == "1.500s")
        #expect(object["message"] as? String == "quota exhausted")
        let details = try #require(object["details"] as? [NSDictionary])
        #expect(
            details == [
                try StatusCommandTests.object(json: StatusSamples.errorInfoJSON),
                try StatusCommandTests.object(json: StatusSamples.retryInfoJSON),
                try StatusCommandTests.object(json: StatusSamples.badRequestJSON),
            ])
        #expect(
            output.hasSuffix(
                #","retryable":true,"retryDelay":"1.500s","httpStatus":429,"message":"quota exhausted","details":["#
                    + [StatusSamples.errorInfoJSON, StatusSamples.retryInfoJSON, StatusSamples.badRequestJSON]
                    .joined(separator: ",") + "]}\n"))
    }

    @Test("prints the message and one line per detail as text")
    func detailsText() throws {
        let code = StatusCode.resourceExhausted
        #expect(
            try CommandRunner.status(["--details-bin", StatusSamples.base64(StatusSamples.quotaStatus)]) == """
                RESOURCE_EXHAUSTED (8): \(code.summary)
                family:       client (the caller must act)
                meaning:      \(code.meaning)
                what to do:   \(code.recoverySuggestion)
                retry helps:  yes, after 1.500s (the server's RetryInfo)
                HTTP status:  429, as the Google Cloud error model maps this code
                message:      quota exhausted
                details:
                  - google.rpc.ErrorInfo {"reason":"RATE_LIMIT_EXCEEDED","domain":"fleetengine.googleapis.com",\
                "metadata":{"quota_limit":"TripRequestsPerMinute"}}
                  - google.rpc.RetryInfo {"retryDelay":"1.500s"}
                  - google.rpc.BadRequest {"fieldViolations":[{"field":"trip.number_of_passengers",\
                "description":"must be at least 1"}]}

                """)
    }

    @Test(
        "reads base64 padded, unpadded and URL-safe alike",
        arguments: [StatusSamples.Form.padded, .unpadded, .urlSafe])
    func base64Forms(form: StatusSamples.Form) throws {
        let padded = StatusSamples.base64(StatusSamples.awkwardStatus, .padded)
        #expect(padded.hasSuffix("="))
        #expect(padded.contains("/"))
        let value = StatusSamples.base64(StatusSamples.awkwardStatus, form)
        let output = try CommandRunner.status(["--details-bin", value, "--json"])
        #expect(output == (try CommandRunner.status(["--details-bin", padded, "--json"])))
        #expect((try StatusCommandTests.object(output)["details"] as? [Any])?.count == 4)
    }

    @Test("with a code, explains that code and says the google.rpc.Status disagrees")
    func codeAndDetails() throws {
        let value = StatusSamples.base64(StatusSamples.quotaStatus)
        let object = try StatusCommandTests.object(
            CommandRunner.status(["unavailable", "--details-bin", value, "--json"]))
        #expect(object["code"] as? Int == 14)
        #expect(object["retryDelay"] as? String == "1.500s")
        #expect((object["details"] as? [Any])?.count == 3)
        let text = try CommandRunner.status(["14", "--details-bin", value])
        #expect(
            text.contains(
                "\nretry helps:  yes, after 1.500s (the server's RetryInfo)\n"
                    + "HTTP status:  503, as the Google Cloud error model maps this code\n"
                    + "note:         the google.rpc.Status says RESOURCE_EXHAUSTED (8); the code given takes "
                    + "precedence\nmessage:      quota exhausted\n"))
    }

    @Test("with --http, explains the code the HTTP status maps to")
    func httpAndDetails() throws {
        let value = StatusSamples.base64(SampleDetails.status(code: 14, message: "", details: []))
        let object = try StatusCommandTests.object(
            CommandRunner.status(["--http", "503", "--details-bin", value, "--json"]))
        #expect(object["code"] as? Int == 14)
        #expect(object["httpStatusIn"] as? Int == 503)
        #expect(object["message"] as? String == "")
        #expect((object["details"] as? [Any])?.count == 0)
        #expect(
            try CommandRunner.status(["--http", "503", "--details-bin", value]).hasSuffix("\ndetails:      none\n"))
    }

    @Test("a detail of a type this tool does not know is its type URL, its bytes in base64 and why it is not decoded")
    func unknownDetailType() throws {
        let unknown = SampleDetails.any("type.example.com/example.Custom", [0x08, 0x96, 0x01])
        let value = StatusSamples.base64(
            SampleDetails.status(
                code: 5, message: "", details: [unknown, StatusSamples.packed(StatusSamples.errorInfo)]))
        let output = try CommandRunner.status(["--details-bin", value, "--json"])
        #expect(
            output.hasSuffix(
                #""message":"","details":[{"@type":"type.example.com/example.Custom","value":"CJYB","#
                    + #""decodingError":"a type this tool does not know"},"# + StatusSamples.errorInfoJSON + "]}\n"))
        #expect(
            try CommandRunner.status(["--details-bin", value]).hasSuffix(
                "\ndetails:\n  - type.example.com/example.Custom, a type this tool does not know; value in base64: CJYB\n"
                    + #"  - google.rpc.ErrorInfo {"reason":"RATE_LIMIT_EXCEEDED","domain":"fleetengine.googleapis.com","#
                    + #""metadata":{"quota_limit":"TripRequestsPerMinute"}}"# + "\n"))
    }

    @Test("a detail whose bytes are not the type it names is kept, with the codec's reason in the text and the JSON")
    func undecodableDetail() throws {
        let broken = SampleDetails.any("type.googleapis.com/google.rpc.ErrorInfo", [0x0a, 0x05, 0x41])
        let value = StatusSamples.base64(SampleDetails.status(code: 3, message: "", details: [broken]))
        let output = try CommandRunner.status(["--details-bin", value, "--json"])
        #expect(
            output.hasSuffix(
                #""details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","value":"CgVB","decodingError":"#
                    + #""length past end: field 1 claims 5 bytes but only 1 remain (byte offset 1, field 1, "#
                    + #"at google.rpc.ErrorInfo.reason)"}]}"# + "\n"))
        #expect(
            try CommandRunner.status(["--details-bin", value]).hasSuffix(
                "\ndetails:\n  - type.googleapis.com/google.rpc.ErrorInfo, whose bytes do not decode: length past end: "
                    + "field 1 claims 5 bytes but only 1 remain (byte offset 1, field 1, at google.rpc.ErrorInfo.reason); "
                    + "value in base64: CgVB\n"))
    }

    @Test("an undecodable detail cannot be taken for a well-known type whose proto3 JSON is also a \"value\"")
    func undecodableDetailIsNotAWrapperValue() throws {
        // google.protobuf.BytesValue's proto3 JSON as an Any is {"@type": ..., "value": base64}: a
        // detail shown as just its type URL and bytes would read as a decoded message.
        let bytesValue = SampleDetails.any("type.googleapis.com/google.protobuf.BytesValue", [0x0a, 0x01, 0x41])
        let broken = SampleDetails.any("type.googleapis.com/google.rpc.RetryInfo", [0xff])
        let emptyURL = SampleDetails.any("", [0x08, 0x01])
        let value = StatusSamples.base64(
            SampleDetails.status(code: 8, message: "", details: [bytesValue, broken, emptyURL]))
        let object = try StatusCommandTests.object(CommandRunner.status(["--details-bin", value, "--json"]))
        let details = try #require(object["details"] as? [[String: Any]])
        try #require(details.count == 3)
        #expect(details[0]["value"] as? String == "QQ==")
        #expect(details[0]["decodingError"] == nil)
        #expect(details[1]["value"] as? String == "/w==")
        #expect((details[1]["decodingError"] as? String)?.hasPrefix("truncated: ") == true)
        #expect(details[2]["@type"] as? String == "")
        #expect(details[2]["decodingError"] as? String == "the detail has no type URL")
        #expect(
            try CommandRunner.status(["--details-bin", value]).hasSuffix(
                "\n  - a detail without a type URL; value in base64: CAE=\n"))
    }

    @Test("a RetryInfo delay of more whole seconds than an Int64 holds is printed in full, as text and as JSON")
    func retryDelayPastInt64Seconds() throws {
        var delay = ProtobufDuration()
        delay.seconds = .max
        delay.nanos = .max
        var info = RetryInfo()
        info.retryDelay = delay
        let value = StatusSamples.base64(
            SampleDetails.status(code: 8, message: "slow down", details: [StatusSamples.packed(info)]))
        let object = try StatusCommandTests.object(CommandRunner.status(["--details-bin", value, "--json"]))
        #expect(object["retryDelay"] as? String == "9223372036854775809.147483647s")
        #expect(
            try CommandRunner.status(["--details-bin", value]).contains(
                "\nretry helps:  yes, after 9223372036854775809.147483647s (the server's RetryInfo)\n"))
    }

    @Test("a code gRPC does not define inside the google.rpc.Status is kept as a number")
    func undefinedCodeInDetails() throws {
        let value = StatusSamples.base64(SampleDetails.status(code: 42, message: "odd", details: []))
        let object = try StatusCommandTests.object(CommandRunner.status(["--details-bin", value, "--json"]))
        #expect(object["code"] as? Int == 42)
        #expect(object["name"] is NSNull)
        #expect(object["family"] as? String == "service-fault")
    }

    @Test("escapes the message so that any text stays valid JSON on one line")
    func escapedMessage() throws {
        let message = "say \"hi\"\\\n\ttab \u{01} caf\u{e9} \u{1F695}"
        let value = StatusSamples.base64(SampleDetails.status(code: 13, message: message, details: []))
        let output = try CommandRunner.status(["--details-bin", value, "--json"])
        #expect(try StatusCommandTests.object(output)["message"] as? String == message)
        #expect(output.contains(#""message":"say \"hi\"\\\n\ttab \u0001 café 🚕""#))
    }
}
