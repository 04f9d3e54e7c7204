import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-message deflate and inflate through zlib, with a ceiling on what inflating may produce.
///
/// gRPC compresses each message on its own (gRPC compression.md), so every call here sets up a
/// fresh `z_stream`, runs it over one payload and tears it down; no zlib state outlives a call
/// and no pointer leaves this file.
enum Zlib {
    /// The wrapper around the deflate stream (RFC 1951).
    enum Format {
        /// RFC 1950: 2-byte header, Adler-32 trailer. What gRPC sends as `deflate`.
        case zlib
        /// RFC 1952: gzip header, CRC-32 and length trailer. What gRPC sends as `gzip`.
        case gzip

        /// zlib's `windowBits`: 15 is the largest window (32 KiB), which accepts every stream;
        /// adding 16 selects the gzip wrapper instead of the zlib one (zlib.h, deflateInit2).
        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .gzip: 15 + 16
            }
        }

        var name: String {
            switch self {
            case .zlib: "deflate (zlib format)"
            case .gzip: "gzip"
            }
        }
    }

    /// Compresses `input` in one go.
    static func compress(_ input: UnsafeRawBufferPointer, format: Format) throws(WireError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        let initStatus = ZLIB_VERSION.withCString { version in
            deflateInit2_(
                stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY,
                version, Int32(MemoryLayout<z_stream>.size))
        }
        guard initStatus == Z_OK else {
            throw .compressionFailed(format: format, status: initStatus, stream: stream)
        }
        defer { deflateEnd(stream) }

        // With room for deflateBound's estimate and Z_FINISH, one deflate call finishes the stream
        // (zlib.h, deflateBound); the loop only matters for input beyond 4 GiB, fed in pieces.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(input.count))))
        var produced = 0
        var consumed = 0
        while true {
            consumed += refillInput(stream, from: input, consumed: consumed)
            let flush = consumed == input.count ? Z_FINISH : Z_NO_FLUSH
            if produced == output.count {
                grow(&output, to: output.count + max(output.count, 64))
            }
            let status = run(stream, output: &output, produced: &produced) { deflate($0, flush) }
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw .compressionFailed(format: format, status: status, stream: stream)
            }
        }
        output.removeLast(output.count - produced)
        return output
    }

    /// Decompresses `input`, which must hold exactly one complete stream in `format`.
    ///
    /// Output grows as inflating needs it, but never past `limit` + 1 bytes: one byte over the
    /// limit proves the payload too large, so a small input that inflates to gigabytes (a
    /// compression bomb) costs at most `limit` + 1 bytes of memory before it is refused.
    static func decompress(
        _ input: UnsafeRawBufferPointer,
        format: Format,
        limit: Int
    ) throws(WireError) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        let initStatus = ZLIB_VERSION.withCString { version in
            inflateInit2_(stream, format.windowBits, version, Int32(MemoryLayout<z_stream>.size))
        }
        guard initStatus == Z_OK else {
            throw WireError(
                code: .invalidCompressedData,
                message: "zlib could not start inflating \(format.name) data (status \(initStatus))")
        }
        defer { inflateEnd(stream) }

        let ceiling = min(limit, Int.max - 1) + 1
        var output: [UInt8] = []
        var produced = 0
        var consumed = 0
        while true {
            consumed += refillInput(stream, from: input, consumed: consumed)
            if produced == output.count {
                guard output.count < ceiling else {
                    throw WireError.inflatesPastLimit(format: format, inputCount: input.count, limit: limit)
                }
                // Start near a typical protobuf compression ratio and double from there.
                let target = min(max(output.count * 2, input.count * 4, 256), ceiling)
                grow(&output, to: target)
            }
            let status = run(stream, output: &output, produced: &produced) { inflate($0, Z_NO_FLUSH) }
            switch status {
            case Z_STREAM_END:
                // The stream may end in the very step that fills the last byte of the ceiling.
                guard produced <= limit else {
                    throw WireError.inflatesPastLimit(format: format, inputCount: input.count, limit: limit)
                }
                let trailing = Int(stream.pointee.avail_in) + (input.count - consumed)
                // gRPC's C core refuses a payload with bytes after the end of the stream
                // (message_compress.cc, "not all input consumed"); so does this decoder.
                guard trailing == 0 else {
                    throw WireError(
                        code: .invalidCompressedData,
                        message: "\(trailing) bytes follow the end of the \(format.name) data")
                }
                output.removeLast(output.count - produced)
                return output
            case Z_OK:
                continue
            case Z_BUF_ERROR where stream.pointee.avail_out == 0:
                continue
            case Z_BUF_ERROR:
                throw WireError(
                    code: .invalidCompressedData,
                    message: "\(format.name) data ends early: \(input.count) bytes hold an incomplete stream")
            case Z_NEED_DICT:
                throw WireError(
                    code: .invalidCompressedData,
                    message: "\(format.name) data needs a preset dictionary, which gRPC does not use")
            default:
                throw WireError(
                    code: .invalidCompressedData,
                    message: "\(format.name) data is corrupt: \(zlibMessage(stream, status: status))")
            }
        }
    }

    /// Points the stream at the next piece of `input` once it has used up the last one, and
    /// returns how many bytes of `input` that piece takes (`avail_in` is 32 bits wide).
    private static func refillInput(
        _ stream: UnsafeMutablePointer<z_stream>,
        from input: UnsafeRawBufferPointer,
        consumed: Int
    ) -> Int {
        guard stream.pointee.avail_in == 0, consumed < input.count, let base = input.baseAddress else { return 0 }
        let piece = min(input.count - consumed, Int(UInt32.max))
        // zlib only reads through next_in; the header leaves it non-const unless ZLIB_CONST is set.
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: (base + consumed).assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(piece)
        return piece
    }

    /// Runs one deflate or inflate step into the unused tail of `output`.
    /// Makes `buffer` `count` bytes long, the new bytes zero, with one copy of the old bytes and
    /// one `memset`. Appending a repeated zero went element by element through the standard
    /// library's unspecialized generic code in a debug build: about 10 s for 4 MiB of output, so
    /// the debug-built tests and fuzzers timed out on payloads that inflate to the size limit.
    private static func grow(_ buffer: inout [UInt8], to count: Int) {
        guard count > buffer.count else { return }
        let old = buffer
        buffer = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            guard let base = target.baseAddress else { return }
            old.withUnsafeBufferPointer { source in
                if let start = source.baseAddress { memcpy(base, start, source.count) }
            }
            memset(base + old.count, 0, count - old.count)
            initialized = count
        }
    }

    private static func run(
        _ stream: UnsafeMutablePointer<z_stream>,
        output: inout [UInt8],
        produced: inout Int,
        step: (UnsafeMutablePointer<z_stream>) -> Int32
    ) -> Int32 {
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return Z_BUF_ERROR }
            let room = min(buffer.count - produced, Int(UInt32.max))
            stream.pointee.next_out = base + produced
            stream.pointee.avail_out = UInt32(room)
            let status = step(stream)
            produced += room - Int(stream.pointee.avail_out)
            return status
        }
    }

    /// zlib's own explanation of the last failure, or the status number when it gave none.
    fileprivate static func zlibMessage(_ stream: UnsafeMutablePointer<z_stream>, status: Int32) -> String {
        if let text = stream.pointee.msg {
            return String(cString: text)
        }
        return "zlib status \(status)"
    }
}

extension WireError {
    fileprivate static func inflatesPastLimit(
        format: Zlib.Format,
        inputCount: Int,
        limit: Int,
        fileID: String = #fileID,
        line: Int = #line
    ) -> WireError {
        WireError(
            code: .messageTooLarge,
            message: "\(format.name) payload of \(inputCount) bytes inflates past the limit of \(limit) bytes",
            fileID: fileID,
            line: line)
    }

    fileprivate static func compressionFailed(
        format: Zlib.Format,
        status: Int32,
        stream: UnsafeMutablePointer<z_stream>,
        fileID: String = #fileID,
        line: Int = #line
    ) -> WireError {
        WireError(
            code: .compressionFailed,
            message: "zlib failed to compress as \(format.name): \(Zlib.zlibMessage(stream, status: status))",
            fileID: fileID,
            line: line)
    }
}
