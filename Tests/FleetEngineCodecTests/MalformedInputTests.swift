import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

@Suite("Malformed binary input gives a located, typed error")
struct MalformedInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var hex: String
        var code: CodecError.Code
        var offset: Int
        var field: Int?
        var path: String
        var testDescription: String { "\(code) at \(offset): \(hex)" }
    }

    static let cases: [Case] = [
        Case(hex: "0a0561", code: .lengthPastEnd, offset: 1, field: 1, path: "maps.fleetengine.v1.Trip.name"),
        Case(hex: "0a01ff", code: .invalidUTF8, offset: 2, field: 1, path: "maps.fleetengine.v1.Trip.name"),
        Case(hex: "0a03 61 c3 28", code: .invalidUTF8, offset: 3, field: 1, path: "maps.fleetengine.v1.Trip.name"),
        Case(hex: "0a02 ed a0", code: .invalidUTF8, offset: 2, field: 1, path: "maps.fleetengine.v1.Trip.name"),
        Case(hex: "0c", code: .unmatchedEndGroup, offset: 0, field: 1, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "1b", code: .truncated, offset: 1, field: 3, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "1b 0801 24", code: .unmatchedEndGroup, offset: 3, field: 4, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "0001", code: .invalidFieldNumber, offset: 0, field: nil, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "8080808010 01", code: .invalidFieldNumber, offset: 0, field: nil, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "0e", code: .invalidWireType, offset: 0, field: 1, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "18 80", code: .truncated, offset: 1, field: 3, path: "maps.fleetengine.v1.Trip"),
        Case(
            hex: "18 ffffffffffffffffffff01", code: .malformedVarint, offset: 1, field: 3,
            path: "maps.fleetengine.v1.Trip"),
        Case(hex: "80", code: .truncated, offset: 0, field: nil, path: "maps.fleetengine.v1.Trip"),
        Case(hex: "4a02 0900", code: .truncated, offset: 3, field: 1, path: "maps.fleetengine.v1.Trip.route[0]"),
        Case(
            hex: "4a00 4a03 0f0000", code: .invalidWireType, offset: 4, field: 1,
            path: "maps.fleetengine.v1.Trip.route[1]"),
        // A route field sent as a varint is kept as an unknown field, not a route element: the faulty
        // point is the route's second element, route[1].
        Case(
            hex: "4a00 4801 4a03 0f0000", code: .invalidWireType, offset: 6, field: 1,
            path: "maps.fleetengine.v1.Trip.route[1]"),
        Case(
            hex: "2a04 0a02 0f00", code: .invalidWireType, offset: 4, field: 1,
            path: "maps.fleetengine.v1.Trip.pickup_point.point"),
        Case(
            hex: "8201 03 1201 ff", code: .invalidUTF8, offset: 5, field: 2,
            path: "maps.fleetengine.v1.Trip.remaining_waypoints[0].trip_id"),
    ]

    @Test("each fault is reported with its code, byte offset, field number and path", arguments: cases)
    func locatedFault(_ fault: Case) {
        do {
            let trip = try Trip(serializedBytes: hexBytes(fault.hex))
            Issue.record("accepted \(fault.hex) as \(trip)")
        } catch {
            #expect(error.code == fault.code)
            #expect(error.byteOffset == fault.offset)
            #expect(error.fieldNumber == fault.field)
            #expect(error.fieldPath == fault.path)
        }
    }

    @Test("input over the size limit is refused before any parsing")
    func sizeLimit() {
        let options = DecodingOptions(maxMessageSize: 8)
        #expect(throws: CodecError(.messageTooLarge)) {
            try Trip(serializedBytes: hexBytes("0a07 61626364656667"), options: options)
        }
        #expect(throws: Never.self) {
            try Trip(serializedBytes: hexBytes("0a06 616263646566"), options: options)
        }
    }

    @Test("the default size limit is 4 MiB, as gRPC's receive limit")
    func defaultSizeLimit() {
        #expect(DecodingOptions().maxMessageSize == 4 * 1024 * 1024)
        let oversized = [UInt8](repeating: 0, count: 4 * 1024 * 1024 + 1)
        #expect(throws: CodecError(.messageTooLarge)) { try Trip(serializedBytes: oversized) }
    }

    @Test("groups nested past the depth limit are refused, not recursed into without end")
    func nestingLimit() {
        let depth = 150
        let bytes = [UInt8](repeating: 0x1b, count: depth) + [UInt8](repeating: 0x1c, count: depth)
        do {
            _ = try Trip(serializedBytes: bytes)
            Issue.record("accepted groups nested \(depth) deep")
        } catch {
            #expect(error.code == .nestingTooDeep)
            #expect(error.byteOffset == 101)
        }
        let shallow = [UInt8](repeating: 0x1b, count: 50) + [UInt8](repeating: 0x1c, count: 50)
        #expect(throws: Never.self) { try Trip(serializedBytes: shallow) }
    }

    @Test("a string in a map entry is checked for UTF-8 too")
    func mapValueUTF8() {
        do {
            _ = try ErrorInfo(serializedBytes: hexBytes("1a05 0a01 61 1200" + "1a03 1201 ff"))
            Issue.record("accepted invalid UTF-8 in a map value")
        } catch {
            #expect(error.code == .invalidUTF8)
            #expect(error.byteOffset == 11)
            #expect(error.fieldPath == "google.rpc.ErrorInfo.metadata[1].value")
        }
    }

    @Test("an error says what and where in its description")
    func description() {
        do {
            _ = try Trip(serializedBytes: hexBytes("0a0561"))
        } catch {
            #expect(
                error.description
                    == "length past end: field 1 claims 5 bytes but only 1 remain"
                    + " (byte offset 1, field 1, at maps.fleetengine.v1.Trip.name)")
        }
    }
}
