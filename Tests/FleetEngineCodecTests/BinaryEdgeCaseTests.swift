import CFleetEngineProtos
import FleetEngineTestSupport
import Testing

@testable import FleetEngineCodec

/// Binary input at the edges of what Google's parsers accept, and of the decoder's own memory bound.
///
/// Expected values come from Google's Python package in the repository's .venv (protobuf 7.36.2, upb
/// backend; google-maps-fleetengine), e.g.
///     from google.maps import fleetengine_v1 as f
///     m = f.Trip.pb()(); m.ParseFromString(bytes.fromhex(...)); m.SerializeToString().hex()
@Suite("Binary input at the edges: length prefixes, overwritten strings, large messages and the arena's arithmetic")
struct BinaryEdgeCaseTests {
    // MARK: Large messages within the size limit decode, under a memory bound linear in their size

    /// SearchTripsResponse{trips: [Trip{}] x 10000}: 20,000 bytes, `0a00` repeated.
    /// Python: parses, len(trips) == 10000, SerializeToString() gives the same 20,000 bytes.
    @Test("a 20 KB SearchTripsResponse of 10,000 empty trips decodes, as Google's parser decodes it")
    func manyEmptyTrips() throws {
        let bytes = Array([[UInt8]](repeating: [0x0a, 0x00], count: 10_000).joined())
        let response = try SearchTripsResponse(serializedBytes: bytes)
        #expect(response.trips.count == 10_000)
        #expect(response.serializedBytes() == bytes)
    }

    /// SearchTripsResponse{trips: [Trip{trip_status: COMPLETE}] x 6000}: `0a02 1805` x 6000, 24,000 bytes.
    /// Python: parses, 6000 trips each with trip_status COMPLETE; re-encodes to the same bytes.
    @Test("a 24 KB search page of 6,000 trips with only their status decodes")
    func manyStatusOnlyTrips() throws {
        let bytes = Array([[UInt8]](repeating: [0x0a, 0x02, 0x18, 0x05], count: 6000).joined())
        let response = try SearchTripsResponse(serializedBytes: bytes)
        #expect(response.trips.count == 6000)
        #expect(response.trips.allSatisfy { $0.tripStatus == .complete })
    }

    /// Trip{intermediate_destinations: [TerminalLocation{}] x 100000}: `7200` x 100000, 200,000 bytes
    /// (a twentieth of the 4 MiB limit). Python: parses, 100000 destinations, same bytes back.
    @Test("a 200 KB Trip of 100,000 empty intermediate destinations decodes")
    func manyEmptyDestinations() throws {
        let bytes = Array([[UInt8]](repeating: [0x72, 0x00], count: 100_000).joined())
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.intermediateDestinations.count == 100_000)
    }

    /// Trip{last_location: VehicleLocation{}} sent 5000 times: `5a00` x 5000, 10,000 bytes. A singular
    /// message arriving more than once is merged. Python: parses, HasField("last_location") is True,
    /// SerializeToString() is `5a00`.
    @Test("a 10 KB Trip whose last_location arrives 5,000 times merges it, as Google's parser does")
    func repeatedSingularMessage() throws {
        let bytes = Array([[UInt8]](repeating: [0x5a, 0x00], count: 5000).joined())
        let trip = try Trip(serializedBytes: bytes)
        #expect(trip.lastLocation != nil)
        #expect(trip.serializedBytes() == hexBytes("5a00"))
    }

    /// The bound's factor comes from protoc-c's descriptors: a Trip reaches no struct larger than its
    /// own, a LatLng none but its own, and the limit is that struct (rounded to 16) plus 88 bytes of
    /// bookkeeping per 2 input bytes, plus a fixed 64 KiB.
    @Test("the decode arena's limit is linear in the input, its factor the largest C struct the type reaches")
    func arenaBoundFromSchema() {
        #expect(Trip.largestReachableCStructSize == MemoryLayout<Maps__Fleetengine__V1__Trip>.size)
        #expect(LatLng.largestReachableCStructSize == MemoryLayout<Google__Type__LatLng>.size)
        #expect(SearchTripsResponse.largestReachableCStructSize == Trip.largestReachableCStructSize)
        let perTwoBytes = (Trip.largestReachableCStructSize + 15) / 16 * 16 + 88
        #expect(BinaryDecoding.arenaLimit(Trip.self, for: 200_000) == 100_000 * perTwoBytes + 64 * 1024)
        #expect(BinaryDecoding.arenaLimit(Trip.self, for: 3) == 2 * perTwoBytes + 64 * 1024)
        #expect(DecodeArenaBound.limit(forInputSize: .max, largestStruct: 552) == .max)
    }

    // MARK: Length prefixes take at most 5 bytes, as in upb and protobuf-c

    /// Trip with field 3 (trip_status, a varint) sent length-delimited with a 6-byte length prefix
    /// of 0: `1a 808080808000`. Python: DecodeError ("Wire format was corrupt"); a 5-byte prefix
    /// (`1a 8080808000`) is accepted, kept as an unknown field and written back unchanged.
    @Test("a wrong-wire-type field whose length prefix takes 6 bytes is refused, as Google refuses it")
    func overlongLengthInMismatchedField() throws {
        let bytes = hexBytes("1a 808080808000")
        do {
            let trip = try Trip(serializedBytes: bytes)
            Issue.record(
                "accepted input Google refuses; re-encodes as \(hexString(trip.serializedBytes())), which Google refuses too"
            )
        } catch {
            #expect(error.byteOffset == 1)
            #expect(error.fieldNumber == 3)
        }
        let fiveBytes = hexBytes("1a 8080808000")
        #expect(try Trip(serializedBytes: fiveBytes).serializedBytes() == fiveBytes)
    }

    /// An unknown group (field 127) holding field 1 with a 6-byte length prefix:
    /// `fb07 0a838080808000616263 fc07`. Python: DecodeError. (With a 5-byte prefix,
    /// `fb07 0a8380808000616263 fc07`, Python accepts and writes it back unchanged.)
    @Test("an unknown group holding a 6-byte length prefix is refused, as Google refuses it")
    func overlongLengthInGroup() throws {
        let bytes = hexBytes("fb07 0a838080808000616263 fc07")
        do {
            let trip = try Trip(serializedBytes: bytes)
            Issue.record("accepted input Google refuses; unknown fields \(hexString(trip.unknownFields.bytes))")
        } catch {
            #expect(error.byteOffset == 3)
        }
        let fiveBytes = hexBytes("fb07 0a8380808000616263 fc07")
        #expect(try Trip(serializedBytes: fiveBytes).serializedBytes() == fiveBytes)
    }

    /// Trip.name with a 6-byte length prefix: `0a 838080808000 616263`. Python: DecodeError.
    /// protobuf-c refuses it too, so the scanner must be the one to say what and where.
    @Test("a known field whose length prefix takes 6 bytes is refused with a located error")
    func overlongLengthLocated() {
        do {
            _ = try Trip(serializedBytes: hexBytes("0a 838080808000 616263"))
            Issue.record("accepted")
        } catch {
            #expect(error.code == .malformedVarint)
            #expect(error.byteOffset == 1)
            #expect(error.fieldNumber == 1)
            #expect(error.fieldPath == "maps.fleetengine.v1.Trip.name")
            #expect(
                error.description
                    == "malformed varint: the length of field 1 is written in 6 bytes; a length takes at most 5"
                    + " (byte offset 1, field 1, at maps.fleetengine.v1.Trip.name)")
        }
    }

    /// Field 127 with a 5-byte length prefix of 2^31: `fa07 8080808008`. Python: DecodeError. Any
    /// such input is also too short for its length; the error says which rule it broke first.
    @Test("a length of 2^31 or more is refused as no length protobuf allows")
    func lengthOf2To31() {
        do {
            _ = try Trip(serializedBytes: hexBytes("fa07 8080808008"))
            Issue.record("accepted")
        } catch {
            #expect(
                error.description
                    == "length past end: field 127 claims 2147483648 bytes; a length must be below 2^31"
                    + " (byte offset 2, field 127, at maps.fleetengine.v1.Trip)")
        }
    }

    /// `UnknownFields(validating:)` must not take `fa07 808080808000` (field 127, 6-byte length
    /// prefix): a Trip carrying it would encode bytes Google's parser refuses (Python: DecodeError
    /// on `fa07808080808000`).
    @Test("UnknownFields(validating:) refuses a field Google's parsers refuse")
    func validatingOverlongLength() {
        #expect(throws: CodecError(.malformedVarint)) {
            _ = try UnknownFields(validating: hexBytes("fa07 808080808000"))
        }
    }

    // MARK: The arena's arithmetic

    /// `fe_arena_allocate` checked `handed_out + rounded > limit`, which wraps for a size near
    /// SIZE_MAX, and then malloced `header + payload`, which wraps too: a request that cannot be met
    /// returned memory instead of NULL.
    @Test("the arena refuses a request that cannot fit instead of wrapping its arithmetic")
    func arenaOverflow() {
        let arena = UnsafeMutablePointer<fe_arena>.allocate(capacity: 1)
        defer { arena.deallocate() }
        fe_arena_init(arena, nil, 0, 1 << 20)
        defer { fe_arena_release(arena) }
        #expect(fe_arena_allocate(UnsafeMutableRawPointer(arena), 32) != nil)
        let result = fe_arena_allocate(UnsafeMutableRawPointer(arena), Int(bitPattern: UInt.max - 20))
        #expect(result == nil, "a request of SIZE_MAX - 20 bytes returned \(String(describing: result))")
        #expect(arena.pointee.exhausted == 1)
    }

    /// With a limit of SIZE_MAX, a request the limit allows must still not wrap the size of the
    /// block it mallocs (`header + payload`).
    @Test("the arena refuses a request whose block size would wrap, even under an unbounded limit")
    func arenaBlockOverflow() {
        let arena = UnsafeMutablePointer<fe_arena>.allocate(capacity: 1)
        defer { arena.deallocate() }
        fe_arena_init(arena, nil, 0, Int(bitPattern: UInt.max))
        defer { fe_arena_release(arena) }
        let result = fe_arena_allocate(UnsafeMutableRawPointer(arena), Int(bitPattern: UInt.max - 20))
        #expect(result == nil, "a request of SIZE_MAX - 20 bytes returned \(String(describing: result))")
        #expect(arena.pointee.exhausted == 1)
    }

    /// Trip.name "\xff" then name "a": `0a01ff 0a0161`; TripWaypoint.trip_id the same way inside
    /// remaining_waypoints: `8201 06 1201ff 120161`. Python (protobuf 7.36, upb): DecodeError "String
    /// field had bad UTF-8" for both. protobuf-c keeps only the last occurrence of a singular field.
    @Test(
        "a string field whose earlier occurrence is not UTF-8 is refused, as Google refuses it",
        arguments: [("0a01ff0a0161", 2, "maps.fleetengine.v1.Trip.name")])
    func replacedInvalidUTF8(hex: String, offset: Int, path: String) {
        #expect {
            _ = try Trip(serializedBytes: hexBytes(hex))
        } throws: { error in
            guard let error = error as? CodecError else { return false }
            return error.code == .invalidUTF8 && error.byteOffset == offset && error.fieldPath == path
        }
    }

    @Test("a nested string field whose earlier occurrence is not UTF-8 is refused")
    func replacedInvalidUTF8Nested() {
        #expect(throws: CodecError(.invalidUTF8)) {
            _ = try Trip(serializedBytes: hexBytes("820106 1201ff 120161"))
        }
    }

    @Test("a string field sent twice, both valid, keeps the last, as Google does")
    func replacedValidString() throws {
        #expect(try Trip(serializedBytes: hexBytes("0a0162 0a0161")).name == "a")
    }
}
