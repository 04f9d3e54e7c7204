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
