import CFleetEngineProtos

/// Swift values to binary: the generated conversions fill protoc-c structs, protobuf-c packs them.
enum BinaryEncoding {
    private static let initialArenaSize = 16 * 1024

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
