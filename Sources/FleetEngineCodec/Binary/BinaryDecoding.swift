import CFleetEngineProtos
import CProtobufC

/// Binary input to Swift values: protobuf-c unpacks, the generated conversions copy out.
///
/// The fast path is one protobuf-c unpack into an arena and one copy into Swift values. Only when
/// that fails does the ``WireScanner`` run: to locate the fault for the error, or to rewrite valid
/// input that protobuf-c cannot take and unpack that instead.
@usableFromInline
enum BinaryDecoding {
    /// Bytes of stack the arena starts with; a typical trip's C structs fit in it.
    private static let initialArenaSize = 16 * 1024

    private enum Failure: Error {
        case refused(exhausted: Bool)
        /// The arena reached ``DecodingOptions/maxDecodedSize`` (less what was already taken)
        /// before its own schema-derived limit.
        case overBudget(budget: Int)
        case conversion(CodecError)
        /// A singular message field came more than once: the scanner's rewrite merges the occurrences.
        case needsRewrite
    }

    /// Calls `body` with the bytes as one contiguous buffer, copying only a collection that has none.
    /// Inlinable, so a caller's collection type is specialized rather than handled generically.
    @inlinable
    static func withContiguousBytes<R>(
        _ bytes: some Collection<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) throws(CodecError) -> R
    ) throws(CodecError) -> R {
        var failure: CodecError?
        let result = bytes.withContiguousStorageIfAvailable { buffer -> R? in
            do throws(CodecError) {
                return try body(buffer)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        if let result, let result { return result }
        return try Array(bytes).withUnsafeBufferPointer { (buffer) throws(CodecError) -> R in try body(buffer) }
    }

    static func decode<M: CBackedMessage>(
        _ type: M.Type,
        buffer: UnsafeBufferPointer<UInt8>,
        options: DecodingOptions
    ) throws(CodecError) -> M {
        guard buffer.count <= options.maxMessageSize else {
            throw CodecError(
                code: .messageTooLarge,
                message: "\(M.protoMessageName) is \(buffer.count) bytes, over the limit of \(options.maxMessageSize)",
                byteOffset: options.maxMessageSize
            )
        }
        let failure: Failure
        do throws(Failure) {
            return try unpack(M.self, buffer, rewritten: false, budget: options.maxDecodedSize, options: options)
                .message
        } catch {
            failure = error
        }
        let scanner = WireScanner(bytes: buffer, options: options)
        let needsRewrite = try scanner.check(M.wireSchema)
        if case .refused(exhausted: true) = failure { throw memoryError(M.self, size: buffer.count) }
        if case .overBudget(let budget) = failure {
            throw budgetError(M.self, size: buffer.count, budget: budget, maxDecodedSize: options.maxDecodedSize)
        }
        guard needsRewrite else {
            if case .conversion(let error) = failure { throw error }
            if case .needsRewrite = failure {
                // Only the scanner's check was wanted: a singular string came more than once, and
                // protobuf-c kept the last without a look at the others. The scanner found every
                // occurrence valid, so protobuf-c's reading stands; it is read again as it is.
                return try unpackAgain(M.self, buffer, options: options)
            }
            throw CodecError(
                code: .rejectedByProtobufC,
                message: "protobuf-c refused \(M.protoMessageName) input that the scanner found well-formed"
            )
        }
        let rewritten = try scanner.rewrite(M.wireSchema)
        return try rewritten.withUnsafeBufferPointer { (again) throws(CodecError) -> M in
            try unpackAgain(M.self, again, options: options)
        }
    }

    /// Unpacks input the scanner has checked (and rewritten where protobuf-c needs it), now
    /// without sending it to the scanner again.
    private static func unpackAgain<M: CBackedMessage>(
        _ type: M.Type, _ buffer: UnsafeBufferPointer<UInt8>, options: DecodingOptions
    ) throws(CodecError) -> M {
        do throws(Failure) {
            return try unpack(M.self, buffer, rewritten: true, budget: options.maxDecodedSize, options: options).message
        } catch {
            switch error {
            case .overBudget(let budget):
                throw budgetError(M.self, size: buffer.count, budget: budget, maxDecodedSize: options.maxDecodedSize)
            case .refused(exhausted: true):
                throw memoryError(M.self, size: buffer.count)
            case .refused(exhausted: false):
                throw CodecError(
                    code: .rejectedByProtobufC,
                    message: "protobuf-c refused \(M.protoMessageName) input even after unsupported fields were wrapped"
                )
            case .conversion(let conversionError):
                throw conversionError
            case .needsRewrite:
                throw CodecError(
                    code: .rejectedByProtobufC,
                    message: "\(M.protoMessageName) still needed rewriting after the scanner rewrote it"
                )
            }
        }
    }

    private static func memoryError<M: CBackedMessage>(_ type: M.Type, size: Int) -> CodecError {
        CodecError(
            code: .memoryLimitExceeded,
            message:
                "unpacking \(size) bytes of \(M.protoMessageName) needs more than \(arenaLimit(M.self, for: size)) bytes"
        )
    }

    private static func budgetError<M: CBackedMessage>(
        _ type: M.Type, size: Int, budget: Int, maxDecodedSize: Int
    ) -> CodecError {
        CodecError(
            code: .resourceExhausted,
            message: "protobuf-c's unpacking of \(size) bytes of \(M.protoMessageName) needs more than the "
                + "\(budget) bytes left of the decoded size limit of \(maxDecodedSize) bytes",
            fieldPath: M.protoMessageName
        )
    }

    /// Decodes a message that the C rendering carried as bytes inside another (see
    /// `CDecodeContext.point`), within the outer decode and its budget: a fault is reported
    /// unlocated, and the outer decoder's scanner then locates it.
    static func decodeEmbedded<M: CBackedMessage>(
        _ type: M.Type,
        _ buffer: UnsafeBufferPointer<UInt8>,
        context: inout CDecodeContext
    ) throws(CodecError) -> M {
        do throws(Failure) {
            let options = DecodingOptions(maxDecodedSize: context.maxDecodedSize)
            let (message, remaining) = try unpack(
                M.self, buffer, rewritten: context.rewritten, budget: context.remainingBudget, options: options)
            context.remainingBudget = remaining
            return message
        } catch {
            switch error {
            case .overBudget(let budget):
                throw budgetError(M.self, size: buffer.count, budget: budget, maxDecodedSize: context.maxDecodedSize)
            case .conversion(let conversionError):
                throw conversionError
            case .refused(exhausted: true):
                throw memoryError(M.self, size: buffer.count)
            case .refused(exhausted: false), .needsRewrite:
                throw CodecError(
                    code: .rejectedByProtobufC, message: "protobuf-c refused an embedded \(M.protoMessageName)")
            }
        }
    }

    /// What protobuf-c may take from the arena for `size` bytes of `M`: a linear function of the
    /// size whose factor comes from the schema (see ``DecodeArenaBound``).
    static func arenaLimit<M: CBackedMessage>(_ type: M.Type, for size: Int) -> Int {
        DecodeArenaBound.limit(forInputSize: size, largestStruct: M.largestReachableCStructSize)
    }

    /// Unpacks with protobuf-c into an arena of at most `budget` bytes, and converts to Swift values
    /// charged against what the arena left of it. Returns the message and what is left of the budget
    /// once the arena is released.
    private static func unpack<M: CBackedMessage>(
        _ type: M.Type,
        _ buffer: UnsafeBufferPointer<UInt8>,
        rewritten: Bool,
        budget: Int,
        options: DecodingOptions
    ) throws(Failure) -> (message: M, remaining: Int) {
        try withUnsafeTemporaryAllocation(of: fe_arena.self, capacity: 1) {
            (arenaBuffer) throws(Failure) -> (message: M, remaining: Int) in
            try withUnsafeTemporaryAllocation(byteCount: initialArenaSize, alignment: 16) {
                (initial) throws(Failure) -> (message: M, remaining: Int) in
                let arena = arenaBuffer.baseAddress.unsafelyUnwrapped
                let structuralLimit = arenaLimit(M.self, for: buffer.count)
                let budgetIsTighter = max(budget, 0) < structuralLimit
                fe_arena_init(
                    arena, initial.baseAddress, initial.count, budgetIsTighter ? max(budget, 0) : structuralLimit)
                defer { fe_arena_release(arena) }
                // protobuf-c reads nothing for an empty input, but wants a pointer all the same.
                var empty: UInt8 = 0
                let unpacked = withUnsafePointer(to: &empty) { emptyPointer in
                    let allocator = UnsafeMutableRawPointer(arena).assumingMemoryBound(to: ProtobufCAllocator.self)
                    return M.cUnpack(allocator, buffer.count, buffer.baseAddress ?? emptyPointer)
                }
                guard let unpacked else {
                    let exhausted = arena.pointee.exhausted != 0
                    if exhausted && budgetIsTighter { throw .overBudget(budget: max(budget, 0)) }
                    throw .refused(exhausted: exhausted)
                }
                let heldByArena = arena.pointee.handed_out
                var context = CDecodeContext(
                    rewritten: rewritten,
                    maxDecodedSize: options.maxDecodedSize,
                    remainingBudget: budget - heldByArena,
                    message: M.self)
                let message: M
                do throws(CodecError) {
                    message = try M(cMessage: unpacked, context: &context)
                } catch {
                    throw .conversion(error)
                }
                if context.sawRepeatedOccurrences && !rewritten { throw .needsRewrite }
                return (message, context.remainingBudget + heldByArena)
            }
        }
    }
}
