extension MessageEncoding {
    /// Compresses one message payload with this encoding; `identity` returns it unchanged.
    ///
    /// - Throws: ``WireError/Code/unsupportedEncoding`` for a name this library does not
    ///   implement.
    public func compress(_ payload: some Collection<UInt8>) throws(WireError) -> [UInt8] {
        let format = try zlibFormat(byteOffset: nil)
        guard let format else { return Array(payload) }
        return try withContiguousBytes(payload) { bytes throws(WireError) in
            try Zlib.compress(bytes, format: format)
        }
    }

    /// Decompresses one message payload compressed with this encoding; `identity` returns it
    /// unchanged.
    ///
    /// - Parameters:
    ///   - payload: The payload of a message whose Compressed-Flag is 1. An empty payload is an
    ///     empty message, as gRPC's C core reads it.
    ///   - maxSize: The most bytes the payload may decompress to. Inflating stops as soon as it
    ///     would pass this, so a compression bomb is refused after at most `maxSize` + 1 bytes.
    ///   - byteOffset: Where the message starts in its stream, for the error.
    /// - Throws: ``WireError/Code/unsupportedEncoding`` for a name this library does not
    ///   implement, ``WireError/Code/invalidCompressedData`` for data that is not one complete
    ///   stream in the encoding's format, ``WireError/Code/messageTooLarge`` past `maxSize`.
    public func decompress(
        _ payload: some Collection<UInt8>,
        maxSize: Int = GRPCMessageDeframer.defaultMaxMessageSize,
        byteOffset: Int? = nil
    ) throws(WireError) -> [UInt8] {
        let format = try zlibFormat(byteOffset: byteOffset)
        guard let format else {
            guard payload.count <= maxSize else {
                throw WireError(
                    code: .messageTooLarge,
                    message: "payload of \(payload.count) bytes is larger than the limit of \(maxSize) bytes",
                    byteOffset: byteOffset)
            }
            return Array(payload)
        }
        // gRPC's C core reads an empty compressed payload as an empty message rather than as a
        // stream cut short (message_compress.cc, "Do not fail on an empty input"); so does this.
        guard !payload.isEmpty else { return [] }
        do {
            return try withContiguousBytes(payload) { bytes throws(WireError) in
                try Zlib.decompress(bytes, format: format, limit: maxSize)
            }
        } catch {
            var located = error
            located.byteOffset = byteOffset
            throw located
        }
    }

    /// The zlib wrapper for this encoding, nil for `identity`.
    private func zlibFormat(byteOffset: Int?) throws(WireError) -> Zlib.Format? {
        switch self {
        case .identity: return nil
        case .gzip: return .gzip
        // gRPC's C core and grpc-swift both inflate and deflate `deflate` with windowBits 15,
        // the zlib wrapper (RFC 1950); neither falls back to a bare RFC 1951 stream, so this
        // library does not either (grpc/grpc src/core/lib/compression/message_compress.cc,
        // grpc-swift-nio-transport Sources/GRPCNIOTransportCore/Compression/Zlib.swift).
        case .deflate: return .zlib
        default:
            throw WireError(
                code: .unsupportedEncoding,
                message: "grpc-encoding '\(rawValue)' is not one of "
                    + Self.supported.map(\.rawValue).joined(separator: ", "),
                byteOffset: byteOffset)
        }
    }
}

/// Runs `body` over the bytes of `collection`, copying them only if they are not contiguous.
func withContiguousBytes<Result>(
    _ collection: some Collection<UInt8>,
    _ body: (UnsafeRawBufferPointer) throws(WireError) -> Result
) throws(WireError) -> Result {
    let outcome = collection.withContiguousStorageIfAvailable { buffer in
        Swift.Result { () throws(WireError) in try body(UnsafeRawBufferPointer(buffer)) }
    }
    if let outcome {
        return try outcome.get()
    }
    return try Array(collection).withUnsafeBytes { bytes in
        Swift.Result { () throws(WireError) in try body(bytes) }
    }.get()
}
