import FleetEngineWire
import Testing

@Suite("GRPCRequestHead reading a header block")
struct GRPCRequestHeadParsingTests {
    static let valid: [(name: String, value: String)] = [
        (":method", "POST"),
        (":scheme", "http"),
        (":path", "/maps.fleetengine.v1.TripService/GetTrip"),
        (":authority", "localhost:50051"),
        ("content-type", "application/grpc+proto"),
        ("te", "trailers"),
        ("grpc-accept-encoding", "identity, deflate,gzip"),
        ("user-agent", "grpc-python/1.66.0 grpc-c/43.0.0 (linux; chttp2)"),
        ("grpc-previous-rpc-attempts", "1"),
        ("authorization", "Bearer t"),
    ]

    static func replacing(_ name: String, with value: String?) -> [(name: String, value: String)] {
        valid.compactMap { field in
            guard field.name == name else { return field }
            return value.map { (name, $0) }
        }
    }

    @Test("reads what another gRPC client sends, keeping its grpc- metadata")
    func readsForeignClient() throws {
        let head = try GRPCRequestHead(headerFields: Self.valid)
        #expect(head.method == .getTrip)
        #expect(head.scheme == .http)
        #expect(head.authority == "localhost:50051")
        #expect(head.contentType == "application/grpc+proto")
        #expect(head.timeout == nil)
        #expect(head.encoding == .identity)
        #expect(head.acceptedEncodings == [.identity, .deflate, .gzip])
        #expect(head.userAgent == "grpc-python/1.66.0 grpc-c/43.0.0 (linux; chttp2)")
        #expect(head.metadata.map(\.description) == ["grpc-previous-rpc-attempts: 1", "authorization: Bearer t"])
    }

    @Test(
        "reads grpc-accept-encoding lists: spaces and tabs around entries dropped, empty entries skipped, repeats kept",
        arguments: [
            ("gzip", ["gzip"]),
            (" gzip ,, \tdeflate\t,", ["gzip", "deflate"]),
            ("identity,deflate,gzip", ["identity", "deflate", "gzip"]),
            ("", []),
            (",", []),
            (" \t ", []),
            ("x-unknown , gzip, gzip", ["x-unknown", "gzip", "gzip"]),
            ("dé flate", ["dé flate"]),
        ])
    func acceptEncodingLists(value: String, expected: [String]) throws {
        let head = try GRPCRequestHead(headerFields: Self.replacing("grpc-accept-encoding", with: value))
        #expect(head.acceptedEncodings.map(\.rawValue) == expected)
    }

    @Test("accepts a request without te or :authority")
    func optionalFields() throws {
        let fields = Self.valid.filter { $0.name != "te" && $0.name != ":authority" }
        let head = try GRPCRequestHead(headerFields: fields)
        #expect(head.authority == nil)
    }

    @Test(
        "refuses a missing required field, naming it",
        arguments: [":method", ":scheme", ":path", "content-type"])
    func missing(name: String) throws {
        let error = try #require(throws: WireError(.missingHeader)) {
            try GRPCRequestHead(headerFields: Self.replacing(name, with: nil))
        }
        #expect(error.message == "the request header block has no \(name)")
    }

    @Test(
        "refuses a field with a value gRPC does not allow, saying what arrived",
        arguments: [
            (":method", "GET", ":method is \"GET\"; gRPC calls are POST"),
            (":scheme", "ftp", ":scheme is \"ftp\", not http or https"),
            (
                "content-type", "application/json",
                "content-type is \"application/json\", which does not begin with application/grpc"
            ),
            (
                "content-type", "application/grpcx",
                "content-type is \"application/grpcx\", which does not begin with application/grpc"
            ),
            (
                // Only the letters compare in any case: 0x0F is '/' with the case bit set.
                "content-type", "application\u{0F}grpc",
                "content-type is \"application\u{0F}grpc\", which does not begin with application/grpc"
            ),
            ("te", "gzip", "header field 5 (te) is \"gzip\"; HTTP/2 allows only \"trailers\""),
        ])
    func invalidValue(name: String, value: String, message: String) throws {
        let error = try #require(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(headerFields: Self.replacing(name, with: value))
        }
        #expect(error.message == message)
    }

    @Test("accepts content types application/grpc, +proto, ;parameters, in any case")
    func contentTypes() throws {
        for value in [
            "application/grpc", "application/grpc+proto", "application/grpc; charset=utf-8", "Application/GRPC",
        ] {
            let head = try GRPCRequestHead(headerFields: Self.replacing("content-type", with: value))
            #expect(head.contentType == value)
        }
    }

    @Test("refuses a malformed path with the path's own error")
    func badPath() throws {
        let error = try #require(throws: WireError(.invalidMethodPath)) {
            try GRPCRequestHead(headerFields: Self.replacing(":path", with: "/only"))
        }
        #expect(error.message == ":path \"/only\" has no '/' between service and method")
    }

    @Test("reads grpc-timeout and refuses a malformed one, naming the field and its place")
    func timeout() throws {
        var fields = Self.valid
        fields.insert(("grpc-timeout", "5S"), at: 4)
        #expect(try GRPCRequestHead(headerFields: fields).timeout == GRPCTimeout(value: 5, unit: .seconds))
        fields[4].value = "5 S"
        let error = try #require(throws: WireError(.invalidHeader)) { try GRPCRequestHead(headerFields: fields) }
        #expect(error.message == "header field 4 (grpc-timeout) is \"5 S\", not 1 to 8 digits and a unit H M S m u n")
    }

    @Test("refuses a pseudo-header after a regular field, a repeated one, and an unknown one")
    func pseudoHeaderRules() throws {
        var late = Self.valid
        late.append((":authority", "other"))
        let lateError = try #require(throws: WireError(.invalidHeader)) { try GRPCRequestHead(headerFields: late) }
        #expect(
            lateError.message
                == "header field 10 (:authority) comes after the regular field 4; pseudo-headers come first "
                + "(RFC 9113 section 8.3)")

        var repeated = Self.valid
        repeated.insert((":method", "POST"), at: 1)
        let repeatedError = try #require(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(headerFields: repeated)
        }
        #expect(repeatedError.message == "header field 1 (:method) appears more than once")

        var unknown = Self.valid
        unknown.insert((":status", "200"), at: 0)
        let unknownError = try #require(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(headerFields: unknown)
        }
        #expect(
            unknownError.message == "header field 0 (:status) is not a request pseudo-header (RFC 9113 section 8.3.1)")
    }

    @Test("refuses an upper-case field name as HTTP/2 does")
    func upperCase() throws {
        var fields = Self.valid
        fields.append(("X-Trace", "1"))
        let error = try #require(throws: WireError(.invalidHeader)) { try GRPCRequestHead(headerFields: fields) }
        #expect(error.message == "header field 10 (X-Trace) has upper-case letters (RFC 9113 section 8.2.1)")
    }
}
