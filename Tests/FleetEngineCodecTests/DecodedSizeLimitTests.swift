import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// `DecodingOptions.maxDecodedSize`: the hostile shapes of Benchmarks/Scripts/decoded-memory.py
/// are refused with a located `resourceExhausted`, within the bound, and ordinary trips decode.
@Suite("The decoded size limit: hostile shapes are refused at the bound, ordinary trips decode within it")
struct DecodedSizeLimitTests {
    static let fourMiB = 4 * 1024 * 1024

    /// The smallest `maxDecodedSize` `bytes` decode within: the accounting is deterministic and
    /// monotonic in the bound, so a bisection finds it.
    static func smallestBound<M: ProtobufMessage>(_ type: M.Type, _ bytes: [UInt8]) -> Int {
        var low = 0
        var high = DecodingOptions.defaultMaxDecodedSize
        while low < high {
            let middle = low + (high - low) / 2
            if (try? M(serializedBytes: bytes, options: DecodingOptions(maxDecodedSize: middle))) != nil {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    static func decodingError<M: ProtobufMessage>(_ type: M.Type, _ bytes: [UInt8], bound: Int) -> CodecError? {
        do {
            _ = try M(serializedBytes: bytes, options: DecodingOptions(maxDecodedSize: bound))
            return nil
        } catch {
            return error
        }
    }

    /// Unknown groups (field 15) nested 99 deep, `count` times over.
    static func deepGroups(count: Int) -> [UInt8] {
        let nest = [UInt8](repeating: 0x7b, count: 99) + [UInt8](repeating: 0x7c, count: 99)
        return Array([[UInt8]](repeating: nest, count: count).joined())
    }

    @Test("4 MiB of empty trips in a SearchTripsResponse is refused under the default bound, at protobuf-c's unpack")
    func emptyTripsUnderDefault() throws {
        let bytes = Array([[UInt8]](repeating: [0x0a, 0x00], count: Self.fourMiB / 2).joined())
        let error = try #require(Self.decodingError(SearchTripsResponse.self, bytes, bound: 600 * 1024 * 1024))
        #expect(error.code == .resourceExhausted)
        #expect(error.fieldPath == "maps.fleetengine.v1.SearchTripsResponse")
        #expect(
            error.message
                == "protobuf-c's unpacking of 4194304 bytes of maps.fleetengine.v1.SearchTripsResponse needs more "
                + "than the 629145600 bytes left of the decoded size limit of 629145600 bytes")
        #expect(DecodingOptions().maxDecodedSize == 629_145_600)
    }

    @Test("empty route points past the bound are refused at the route's array, naming Trip.route")
    func emptyRoutePoints() throws {
        let bytes = Array([[UInt8]](repeating: [0x4a, 0x00], count: 10_000).joined())
        let needed = Self.smallestBound(Trip.self, bytes)
        #expect(needed == 923_824)
        let trip = try Trip(serializedBytes: bytes, options: DecodingOptions(maxDecodedSize: needed))
        #expect(trip.route.count == 10_000)
        let error = try #require(Self.decodingError(Trip.self, bytes, bound: needed - 1))
        #expect(error.code == .resourceExhausted)
        #expect(error.fieldPath == "maps.fleetengine.v1.Trip.route")
        #expect(
            error.message
                == "10000 google.type.LatLng values in maps.fleetengine.v1.Trip need 240032 bytes, "
                + "past the decoded size limit of \(needed - 1) bytes")
    }

    @Test("deep unknown groups past the bound are refused, naming the Trip that holds them")
    func deepUnknownGroups() throws {
        let bytes = Self.deepGroups(count: 50)
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.serializedBytes() == bytes)
        let needed = Self.smallestBound(Trip.self, bytes)
        #expect(needed == 25_482)
        _ = try Trip(serializedBytes: bytes, options: DecodingOptions(maxDecodedSize: needed))
        let error = try #require(Self.decodingError(Trip.self, bytes, bound: needed - 1))
        #expect(error.code == .resourceExhausted)
        #expect(error.fieldPath == "maps.fleetengine.v1.Trip")
    }

    /// protobuf-c keeps the field's value with its 4-byte length prefix; the charge is that, a tag's
    /// 5 bytes and an array's 32-byte header: 4,194,296 + 4 + 5 + 32.
    @Test("a 4 MiB unknown packed field is refused when its copy would pass the bound")
    func hugePackedUnknownField() throws {
        let payload = Self.fourMiB - 8
        var bytes: [UInt8] = []
        WireReading.appendVarint(1000 << 3 | 2, to: &bytes)
        WireReading.appendVarint(UInt64(payload), to: &bytes)
        bytes += [UInt8](repeating: 0x01, count: payload)
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.unknownFields.bytes == bytes)
        let needed = Self.smallestBound(Trip.self, bytes)
        #expect(needed == 8_389_201)
        let error = try #require(Self.decodingError(Trip.self, bytes, bound: needed - 1))
        #expect(error.code == .resourceExhausted)
        #expect(error.fieldPath == "maps.fleetengine.v1.Trip")
        #expect(
            error.message
                == "unknown fields (1) in maps.fleetengine.v1.Trip need 4194337 bytes, "
                + "past the decoded size limit of \(needed - 1) bytes")
    }

    @Test("the golden large trip decodes at exactly its accounted size and is refused one byte below it")
    func largeTripAtItsExactBound() throws {
        let bytes = GoldenVectors.bytes("trip_large.bin")
        let expected = try Trip(serializedBytes: bytes)
        let needed = Self.smallestBound(Trip.self, bytes)
        #expect(needed == 418_849)
        #expect(try Trip(serializedBytes: bytes, options: DecodingOptions(maxDecodedSize: needed)) == expected)
        let error = try #require(Self.decodingError(Trip.self, bytes, bound: needed - 1))
        #expect(error.code == .resourceExhausted)
    }

    @Test("a 4 MiB trip, the golden large trip with its route repeated, decodes under the default bound")
    func fourMiBTripUnderDefault() throws {
        var trip = try Trip(serializedBytes: GoldenVectors.bytes("trip_large.bin"))
        var routeOnly = Trip()
        routeOnly.route = trip.route
        let copies = (Self.fourMiB - trip.serializedBytes().count) / routeOnly.serializedBytes().count
        trip.route = Array([[LatLng]](repeating: trip.route, count: copies).joined())
        let bytes = trip.serializedBytes()
        #expect(bytes.count <= Self.fourMiB && bytes.count > Self.fourMiB - 2 * routeOnly.serializedBytes().count)
        #expect(try Trip(serializedBytes: bytes) == trip)
    }
}
