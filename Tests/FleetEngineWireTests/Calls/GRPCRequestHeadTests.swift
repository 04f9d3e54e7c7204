import FleetEngineWire
import Testing

@Suite("GRPCRequestHead")
struct GRPCRequestHeadTests {
    static func lines(_ fields: [(name: String, value: String)]) -> [String] {
        fields.map { $0.name + ": " + $0.value }
    }

    static func fullHead() throws -> GRPCRequestHead {
        var head = try GRPCRequestHead(
            method: .getTrip,
            authority: "fleetengine.googleapis.com",
            scheme: .https,
            timeout: GRPCTimeout(.seconds(10)),
            userAgent: "grpc-swift-fleet-engine/0.1",
            encoding: .gzip,
            acceptedEncodings: [.gzip, .deflate, .identity],
            metadata: ["authorization": "Bearer abc.def"])
        try head.appendMetadata(name: "x-goog-request-params", value: "name=providers/p/trips/t")
        try head.appendMetadata(name: "trace-bin", binaryValue: [1, 2, 3, 4])
        return head
    }

    @Test("writes the pseudo-headers, then grpc-timeout, then the call definition, then the metadata")
    func headerOrder() throws {
        #expect(
            Self.lines(try Self.fullHead().headerFields) == [
                ":method: POST",
                ":scheme: https",
                ":path: /maps.fleetengine.v1.TripService/GetTrip",
                ":authority: fleetengine.googleapis.com",
                "grpc-timeout: 10000000u",
                "content-type: application/grpc",
                "te: trailers",
                "grpc-encoding: gzip",
                "grpc-accept-encoding: gzip,deflate,identity",
                "user-agent: grpc-swift-fleet-engine/0.1",
                "authorization: Bearer abc.def",
                "x-goog-request-params: name=providers/p/trips/t",
                "trace-bin: AQIDBA",
            ])
    }

    @Test("leaves out what is not set: authority, timeout, identity encoding, accepted encodings, user agent")
    func minimal() throws {
        let head = try GRPCRequestHead(method: .createTrip, authority: nil, scheme: .http)
        #expect(
            Self.lines(head.headerFields) == [
                ":method: POST",
                ":scheme: http",
                ":path: /maps.fleetengine.v1.TripService/CreateTrip",
                "content-type: application/grpc",
                "te: trailers",
            ])
    }

    @Test("the method and timeout can change for each call of a head built once")
    func perCall() throws {
        var head = try Self.fullHead()
        head.method = .updateTrip
        head.timeout = GRPCTimeout(.milliseconds(1_500))
        let fields = head.headerFields
        #expect(fields[2].value == "/maps.fleetengine.v1.TripService/UpdateTrip")
        #expect(fields[4].name == "grpc-timeout")
        #expect(fields[4].value == "1500000u")
    }

    @Test("reads its own header block back to an equal head")
    func roundTrip() throws {
        let head = try Self.fullHead()
        let parsed = try GRPCRequestHead(headerFields: head.headerFields)
        #expect(parsed == head)
        #expect(parsed.timeout?.duration == .seconds(10))
        #expect(parsed.encoding == .gzip)
        #expect(parsed.acceptedEncodings == [.gzip, .deflate, .identity])
        #expect(try parsed.metadata.binaryValues(named: "trace-bin") == [[1, 2, 3, 4]])
        #expect(Self.lines(parsed.headerFields) == Self.lines(head.headerFields))
    }

    @Test(
        "refuses metadata names the call layer writes or gRPC and HTTP/2 reserve",
        arguments: [
            ":path", ":authority", "te", "content-type", "user-agent", "grpc-timeout", "grpc-encoding",
            "grpc-accept-encoding", "grpc-status", "grpc-message", "grpc-status-details-bin", "grpc-custom",
            "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
        ])
    func reservedNames(name: String) throws {
        var head = try GRPCRequestHead(method: .getTrip, authority: "localhost")
        let error = try #require(throws: WireError(.reservedMetadata)) {
            try head.appendMetadata(name: name, value: "x")
        }
        #expect(error.message.hasPrefix("metadata name \"\(name)\" "))
        #expect(head.metadata.isEmpty)
        #expect(throws: WireError(.reservedMetadata)) {
            try GRPCRequestHead(method: .getTrip, authority: "localhost", metadata: [name: "x"])
        }
    }

    @Test(
        "refuses metadata names that are not lower-case 0-9 a-z _ - .",
        arguments: [
            ("", "metadata name \"\" is empty"),
            ("X-Id", "metadata name \"X-Id\" has 'X' at byte 0; a gRPC header name is 0-9 a-z _ - . only"),
            ("x id", "metadata name \"x id\" has byte 0x20 at byte 1; a gRPC header name is 0-9 a-z _ - . only"),
            ("x:id", "metadata name \"x:id\" has ':' at byte 1; a gRPC header name is 0-9 a-z _ - . only"),
        ])
    func invalidNames(name: String, message: String) throws {
        var head = try GRPCRequestHead(method: .getTrip, authority: "localhost")
        let error = try #require(throws: WireError(.invalidMetadata)) {
            try head.appendMetadata(name: name, value: "x")
        }
        #expect(error.message == message)
    }

    @Test(
        "refuses metadata values gRPC does not allow, without echoing them",
        arguments: [
            (
                "x-id", "a\u{7F}",
                "the value of metadata \"x-id\" has byte 0x7f at byte 1; only printable ASCII is allowed"
            ),
            (
                "x-id", "caf\u{e9}",
                "the value of metadata \"x-id\" has byte 0xc3 at byte 3; only printable ASCII is allowed"
            ),
            (
                "x-id", "a\r\nb",
                "the value of metadata \"x-id\" has byte 0xd at byte 1; only printable ASCII is allowed"
            ),
            ("x-id", " a", "the value of metadata \"x-id\" starts or ends with a space (RFC 9113 section 8.2.1)"),
            (
                "x-trace-bin", "+-_8",
                "the value of metadata \"x-trace-bin\" has '-' at byte 1: a -bin value is sent in base64's standard "
                    + "alphabet (+ and /), the only one gRPC servers decode"
            ),
        ])
    func invalidValues(name: String, value: String, message: String) throws {
        var head = try GRPCRequestHead(method: .getTrip, authority: "localhost")
        let error = try #require(throws: WireError(.invalidMetadata)) {
            try head.appendMetadata(name: name, value: value)
        }
        #expect(error.message == message)
        let checked = try #require(throws: WireError(.invalidMetadata)) {
            _ = try GRPCCheckedMetadataField(name: name, value: value)
        }
        #expect(checked.message == message)
    }

    @Test("a field checked once goes on any number of heads as if appended by name and value")
    func checkedFields() throws {
        let token = try GRPCCheckedMetadataField(name: "authorization", value: "Bearer abc.def")
        let trace = try GRPCCheckedMetadataField(name: "trace-bin", value: "AQIDBA")
        var byName = try GRPCRequestHead(method: .getTrip, authority: "localhost")
        try byName.appendMetadata(name: "authorization", value: "Bearer abc.def")
        try byName.appendMetadata(name: "trace-bin", binaryValue: [1, 2, 3, 4])
        for method in [GRPCMethodPath.getTrip, .updateTrip] {
            var head = try GRPCRequestHead(method: method, authority: "localhost")
            head.appendMetadata(token)
            head.appendMetadata(trace)
            #expect(head.metadata == byName.metadata)
        }
        #expect(throws: WireError(.reservedMetadata)) {
            try GRPCCheckedMetadataField(name: "grpc-timeout", value: "1S")
        }
        let notBase64 = try #require(throws: WireError(.invalidMetadata)) {
            try GRPCCheckedMetadataField(name: "c-bin", value: "AQ I")
        }
        #expect(notBase64.message.hasPrefix("the value of metadata \"c-bin\" is not base64"))
    }

    @Test("a -bin value must be base64, and binary values need a -bin name")
    func binaryMetadata() throws {
        var head = try GRPCRequestHead(method: .getTrip, authority: "localhost")
        try head.appendMetadata(name: "a-bin", value: "AQI=")
        try head.appendMetadata(name: "b-bin", value: "AQI")
        let notBase64 = try #require(throws: WireError(.invalidMetadata)) {
            try head.appendMetadata(name: "c-bin", value: "AQ I")
        }
        #expect(notBase64.message.hasPrefix("the value of metadata \"c-bin\" is not base64, as a -bin value must be: "))
        let notBinary = try #require(throws: WireError(.invalidMetadata)) {
            try head.appendMetadata(name: "trace", binaryValue: [1])
        }
        #expect(notBinary.message == "metadata name \"trace\" does not end in -bin, so it cannot carry binary values")
        #expect(head.metadata.map(\.description) == ["a-bin: AQI=", "b-bin: AQI"])
    }

    @Test("refuses an authority, user agent or encoding that is not visible ASCII")
    func invalidCallDefinition() throws {
        let authority = try #require(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(method: .getTrip, authority: "local host")
        }
        #expect(
            authority.message == ":authority \"local host\" has byte 0x20 at byte 5; only printable ASCII is allowed")
        #expect(throws: WireError(.invalidHeader)) { try GRPCRequestHead(method: .getTrip, authority: "") }
        #expect(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(method: .getTrip, authority: "h", userAgent: "agent\n")
        }
        #expect(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(method: .getTrip, authority: "h", encoding: MessageEncoding(rawValue: "g zip"))
        }
        let list = try #require(throws: WireError(.invalidHeader)) {
            try GRPCRequestHead(method: .getTrip, authority: "h", acceptedEncodings: [MessageEncoding(rawValue: "a,b")])
        }
        #expect(list.message == "grpc-accept-encoding entry \"a,b\" contains ',', the list separator")
    }
}
