import CFleetEngineProtos

/// Swift values to binary: the generated conversions fill protoc-c structs, protobuf-c packs them.
enum BinaryEncoding {
    /// The first arena block, on the stack: the C structs of a request take a few hundred bytes.
    /// `withUnsafeTemporaryAllocation` keeps up to 1 KiB on the stack and takes anything larger
    /// from the heap (16 KiB did, a malloc and free per request); a larger message's structs
    /// continue in the arena's heap blocks.
    private static let initialArenaSize = 1024

    static func encode<M: CBackedMessage>(_ message: M) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: fe_arena.self, capacity: 1) { arenaBuffer in
            withUnsafeTemporaryAllocation(byteCount: initialArenaSize, alignment: 16) { initial in
                let arena = arenaBuffer.baseAddress.unsafelyUnwrapped
                fe_arena_init(arena, initial.baseAddress, initial.count, Int.max)
                defer { fe_arena_release(arena) }
                let c = EncodeArena(arena: arena).message(message)
                let size = M.cPackedSize(c)
                guard size > 0 else { return [] }
                return [UInt8](unsafeUninitializedCapacity: size) { output, count in
                    count = M.cPack(c, into: output.baseAddress.unsafelyUnwrapped)
                }
            }
        }
    }
}
