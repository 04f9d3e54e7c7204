import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

@Suite("Whether a decoded message holds unknown fields anywhere: the check before scanning for them")
struct ContainsUnknownFieldsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var type: any ProtobufMessage.Type
        var hex: String
        var holdsUnknownFields: Bool
    }

    static let cases: [Case] = [
        Case(testDescription: "none", type: Trip.self, hex: "0a0161 1802", holdsUnknownFields: false),
        Case(testDescription: "empty input", type: Trip.self, hex: "", holdsUnknownFields: false),
        Case(
            testDescription: "canonical points only", type: Trip.self,
            hex: "4a12 09000000000000f03f 110000000000000040 4a00 2a0b 0a09 09000000000000f03f",
            holdsUnknownFields: false),
        Case(testDescription: "the top message's own", type: Trip.self, hex: "0a0161 f80701", holdsUnknownFields: true),
        Case(
            testDescription: "a singular sub-message's point", type: Trip.self,
            hex: "2a0e 0a0c 09000000000000f03f 489601", holdsUnknownFields: true),
        Case(
            testDescription: "a point of the route", type: Trip.self, hex: "4a00 4a0b 09000000000000f03f 5005",
            holdsUnknownFields: true),
        Case(
            testDescription: "a point of a repeated sub-message's repeated field", type: Trip.self,
            hex: "8201 0f 2200 220b 09000000000000f03f 5005", holdsUnknownFields: true),
        Case(
            testDescription: "a wrapper field of the top message", type: Trip.self, hex: "6204 0805 1001",
            holdsUnknownFields: true),
        Case(
            testDescription: "a wrapper field of a sub-message", type: Trip.self, hex: "5a06 1204 0805 1001",
            holdsUnknownFields: true),
        Case(
            testDescription: "a well-known type inside a repeated sub-message", type: Trip.self,
            hex: "8201 06 4204 0801 2801", holdsUnknownFields: true),
        Case(
            testDescription: "a known field with another wire type", type: Trip.self, hex: "0805 1802",
            holdsUnknownFields: true),
        Case(
            testDescription: "the same inside a point", type: Trip.self, hex: "2a04 0a02 0801",
            holdsUnknownFields: true),
        Case(testDescription: "a group", type: Trip.self, hex: "1802 fb07 0801 fc07", holdsUnknownFields: true),
        Case(
            testDescription: "a map entry holding more than its key and value", type: ErrorInfo.self,
            hex: "1a08 0a016b 120176 1801", holdsUnknownFields: true),
        Case(
            testDescription: "a plain map entry", type: ErrorInfo.self, hex: "1a06 0a016b 120176",
            holdsUnknownFields: false),
        Case(
            testDescription: "an Any of a status's details", type: RPCStatus.self, hex: "0803 1a02 1801",
            holdsUnknownFields: true),
        Case(
            testDescription: "a singular sub-message sent twice, the first holding one", type: SearchTripsRequest.self,
            hex: "0a07 0a02656e f80105 0a04 12025553 1a0170", holdsUnknownFields: true),
    ]

    @Test("decoded, the message says what a scan of its input finds", arguments: cases)
    func agreesWithTheScan(_ testCase: Case) throws {
        let bytes = hexBytes(testCase.hex)
        let message = try testCase.type.init(serializedBytes: bytes, options: DecodingOptions())
        #expect(message.containsUnknownFields == testCase.holdsUnknownFields)
        #expect(try testCase.type.unknownFieldLocations(in: bytes).isEmpty == !testCase.holdsUnknownFields)
        // What the client commands scan: the message's own encoding.
        let encoded = message.serializedBytes()
        #expect(try testCase.type.unknownFieldLocations(in: encoded).isEmpty == !testCase.holdsUnknownFields)
    }

    @Test(
        "for every golden vector, a scan finds fields only where the decoded message says it holds some",
        arguments: GoldenVectors.cases)
    func goldenVectors(_ vector: GoldenVectors.Case) throws {
        let type = try #require(MessageRegistry.messageType(named: vector.type))
        let message = try type.init(serializedBytes: vector.binary, options: DecodingOptions())
        let locations = try type.unknownFieldLocations(in: vector.binary)
        #expect(message.containsUnknownFields || locations.isEmpty, "\(locations)")
    }

    @Test("a message built in code: unknown fields set deep inside, then taken away")
    func builtInCode() throws {
        var trip = Trip()
        trip.remainingWaypoints = [TripWaypoint(), TripWaypoint()]
        trip.remainingWaypoints[1].pathToWaypoint = [LatLng(), LatLng(), LatLng()]
        #expect(!trip.containsUnknownFields)
        trip.remainingWaypoints[1].pathToWaypoint[2].unknownFields = try UnknownFields(validating: hexBytes("5005"))
        #expect(trip.containsUnknownFields)
        #expect(trip.remainingWaypoints[1].containsUnknownFields)
        #expect(!trip.remainingWaypoints[0].containsUnknownFields)
        trip.remainingWaypoints[1].pathToWaypoint[2].unknownFields = UnknownFields()
        #expect(!trip.containsUnknownFields)
        trip.wrapperUnknownFields[12] = UnknownFields()
        #expect(!trip.containsUnknownFields)
        trip.wrapperUnknownFields[12] = try UnknownFields(validating: hexBytes("1001"))
        #expect(trip.containsUnknownFields)
    }
}
