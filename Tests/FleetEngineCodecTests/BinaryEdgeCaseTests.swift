import CFleetEngineProtos
import Testing

@testable import FleetEngineCodec

/// Binary input at the edges of what Google's parsers accept, and of the decoder's own memory bound.
///
/// Expected values come from Google's Python package in /work/main/.venv (protobuf 7.36.2, upb
/// backend; google-maps-fleetengine), e.g.
///     from google.maps import fleetengine_v1 as f
///     m = f.Trip.pb()(); m.ParseFromString(bytes.fromhex(...)); m.SerializeToString().hex()
@Suite("Binary input at the edges: length prefixes, overwritten strings, large messages and the arena's arithmetic")
struct BinaryEdgeCaseTests {
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
}
