/// Turns the bytes of one direction of a gRPC call, arriving in pieces of any size, into
/// messages.
///
/// Feed it each DATA frame's payload (or each reassembled TCP segment) with ``append(_:)``, then
/// call ``next()`` until it returns nil; at the end of the stream, ``finish()`` says whether the
/// stream stopped inside a message. The framing is gRPC PROTOCOL-HTTP2 "Length-Prefixed-Message":
/// a Compressed-Flag byte, a 4-byte big-endian Message-Length, then the Message.
///
/// ```swift
/// var deframer = GRPCMessageDeframer(encoding: .gzip)
/// for chunk in dataFrames {
///     deframer.append(chunk)
///     while let payload = try deframer.nextPayload() {
///         let trip = try Trip(serializedBytes: payload)
///     }
/// }
/// try deframer.finish()
/// ```
///
/// A framing fault (a length over the limit, a flag that is neither 0 nor 1) leaves the deframer
/// where it was, so every later ``next()`` reports it again: nothing after it can be trusted to
/// start on a message boundary. Bytes appended after it are dropped, so a caller that goes on
/// feeding the stream does not make the deframer hold the rest of it. A payload that fails to
/// decompress is consumed, and the next message can still be read.
public struct GRPCMessageDeframer: Sendable {
    /// gRPC's default limit for a received message: 4 MiB.
    public static let defaultMaxMessageSize = 4 * 1024 * 1024

    /// The largest Message-Length accepted, and the most a payload may decompress to.
    public let maxMessageSize: Int
    /// The stream's `grpc-encoding`, used by ``nextPayload()`` to decompress flagged messages.
    public let encoding: MessageEncoding

    /// Received bytes not yet returned; those before `readIndex` are consumed and are dropped
    /// from time to time.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// How many consumed bytes have been dropped from the front of `buffer`.
    private var droppedByteCount = 0
    /// The room last asked for ahead of a message's bytes, until the buffer is let go.
    private var reservedCapacity = 0
    /// The most bytes the buffer has held since it was last let go: past ``maxReservation``, the
    /// room a large message took is let go once that message has been read.
    private var peakCount = 0

    /// The framing fault ``next()`` found, if it found one: the message boundaries are lost from
    /// there, so it is reported again and the bytes appended after it are not kept.
    public private(set) var framingFault: WireError?

    /// The stream offset of the prefix of the message ``next()`` returned last.
    public private(set) var lastMessageOffset: Int?

    /// A deframer for one direction of one call.
    ///
    /// - Parameters:
    ///   - maxMessageSize: The largest message accepted, in bytes, before and after
    ///     decompression. A larger Message-Length is refused as soon as its prefix arrives,
    ///     before its payload is waited for.
    ///   - encoding: The stream's `grpc-encoding` (`identity` when the header is absent).
    public init(maxMessageSize: Int = defaultMaxMessageSize, encoding: MessageEncoding = .identity) {
        self.maxMessageSize = maxMessageSize
        self.encoding = encoding
    }

    /// The stream offset of the next message's prefix: every byte before it has been returned.
    public var nextMessageOffset: Int { droppedByteCount + readIndex }

    /// How many received bytes have not yet been returned in a message.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// The bytes the buffer holds or has reserved ahead for a message on its way: what the deframer
    /// is counted as costing in memory. It is worked out from what was asked for, not from what the
    /// allocator gave (which may be more, and differ from one run to the next), so that a bound on
    /// it gives up the same calls every time the same input is read.
    public var bufferCapacity: Int { max(buffer.count, reservedCapacity) }

    /// The buffer's capacity as the allocator gave it.
    var allocatedCapacity: Int { buffer.capacity }

    /// Adds the next bytes of the stream; after a framing fault they are dropped, since no message
    /// can be read from them.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard framingFault == nil else { return }
        dropConsumedBytes()
        reserveForMessage(startingWith: bytes)
        buffer.append(contentsOf: bytes)
        peakCount = max(peakCount, buffer.count)
    }

    /// The most a message's prefix makes the buffer reserve ahead of its bytes: enough for a few
    /// trips, and little for a prefix that promises bytes that never come.
    static let maxReservation = 64 * 1024

    /// When the next message starts at the beginning of `bytes` and they hold its whole prefix,
    /// makes room for the whole message at once, so a message that arrives in several DATA frames
    /// is not copied each time the buffer grows. The room is at most four times the bytes in hand:
    /// a capture that opens many streams with a bare prefix each must not make the decoder hold far
    /// more memory than it read. Only contiguous bytes are looked at ahead of the append: a
    /// sequence that can be iterated only once is left whole for it.
    private mutating func reserveForMessage(startingWith bytes: some Sequence<UInt8>) {
        guard buffer.count == readIndex else { return }
        let room = bytes.withContiguousStorageIfAvailable { incoming -> Int in
            guard incoming.count >= GRPCMessage.prefixLength else { return 0 }
            let length = Self.messageLength(incoming[1..<GRPCMessage.prefixLength])
            guard length <= maxMessageSize else { return 0 }  // next() reports it
            let room = min(GRPCMessage.prefixLength + length, Self.maxReservation, 4 * incoming.count)
            return room > incoming.count ? room : 0
        }
        guard let room, room > 0 else { return }
        buffer.reserveCapacity(readIndex + room)
        reservedCapacity = max(reservedCapacity, readIndex + room)
    }

    /// The Message-Length of a prefix: its last four bytes, big-endian.
    private static func messageLength(_ lengthBytes: some Collection<UInt8>) -> Int {
        lengthBytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The next complete message, or nil when the bytes received so far do not complete one.
    ///
    /// - Throws: ``WireError/Code/messageTooLarge`` when a prefix declares more than
    ///   ``maxMessageSize`` bytes, ``WireError/Code/invalidCompressedFlag`` when its flag byte is
    ///   not 0 or 1. Both carry the message's stream offset.
    public mutating func next() throws(WireError) -> GRPCMessage? {
        if let framingFault { throw framingFault }
        let prefix: (isCompressed: Bool, length: Int)
        do throws(WireError) {
            guard let complete = try self.prefix(at: readIndex) else { return nil }
            prefix = complete
        } catch {
            framingFault = error
            throw error
        }
        let payloadStart = readIndex + GRPCMessage.prefixLength
        guard buffer.count - payloadStart >= prefix.length else { return nil }
        let payloadEnd = payloadStart + prefix.length
        lastMessageOffset = nextMessageOffset
        if readIndex == 0, payloadEnd == buffer.count {
            // The buffer holds this message and nothing else (a unary response): hand it over
            // without its prefix rather than copy it.
            buffer.removeFirst(GRPCMessage.prefixLength)
            let payload = buffer
            buffer = []
            reservedCapacity = 0
            peakCount = 0
            droppedByteCount += payloadEnd
            return GRPCMessage(isCompressed: prefix.isCompressed, payload: payload)
        }
        let message = GRPCMessage(isCompressed: prefix.isCompressed, payload: Array(buffer[payloadStart..<payloadEnd]))
        readIndex = payloadEnd
        return message
    }

    /// The next complete message's serialized protobuf, decompressed with ``encoding`` if the
    /// message is flagged compressed; nil when the bytes so far do not complete a message.
    ///
    /// - Throws: what ``next()`` throws, and what
    ///   ``GRPCMessage/decompressedPayload(encoding:maxSize:byteOffset:)`` throws.
    public mutating func nextPayload() throws(WireError) -> [UInt8]? {
        guard let message = try next() else { return nil }
        return try message.decompressedPayload(
            encoding: encoding, maxSize: maxMessageSize, byteOffset: lastMessageOffset)
    }

    /// Declares the end of the stream and checks that it did not stop inside a message.
    ///
    /// Complete messages still buffered stay available to ``next()``.
    ///
    /// - Throws: ``WireError/Code/truncatedMessage``, saying how many bytes of the last message's
    ///   prefix or payload are missing, and the framing faults ``next()`` reports.
    public func finish() throws(WireError) {
        var index = readIndex
        while index < buffer.count {
            let available = buffer.count - index
            let offset = droppedByteCount + index
            guard let prefix = try prefix(at: index) else {
                let missing = GRPCMessage.prefixLength - available
                throw WireError(
                    code: .truncatedMessage,
                    message: "stream ended \(available) bytes into a message's \(GRPCMessage.prefixLength)-byte "
                        + "prefix; \(missing) bytes of the prefix are missing",
                    byteOffset: offset)
            }
            let received = available - GRPCMessage.prefixLength
            guard received >= prefix.length else {
                throw WireError(
                    code: .truncatedMessage,
                    message: "stream ended after \(received) of the message's \(prefix.length) bytes; "
                        + "\(prefix.length - received) bytes are missing",
                    byteOffset: offset)
            }
            index += GRPCMessage.prefixLength + prefix.length
        }
    }

    /// Reads and checks the prefix at `index`, or returns nil when it has not fully arrived.
    private func prefix(at index: Int) throws(WireError) -> (isCompressed: Bool, length: Int)? {
        guard buffer.count - index >= GRPCMessage.prefixLength else { return nil }
        let offset = droppedByteCount + index
        let flag = buffer[index]
        // PROTOCOL-HTTP2 defines only 0 and 1; grpc-go refuses any other value ("unexpected
        // payload format") and so does this decoder, since a stray value most often means the
        // reader has lost the message boundaries.
        guard flag <= 1 else {
            throw WireError(
                code: .invalidCompressedFlag,
                message: "Compressed-Flag is \(flag); gRPC defines only 0 and 1",
                byteOffset: offset)
        }
        let length = Self.messageLength(buffer[(index + 1)..<(index + GRPCMessage.prefixLength)])
        guard length <= maxMessageSize else {
            throw WireError(
                code: .messageTooLarge,
                message: "Message-Length is \(length) bytes, more than the limit of \(maxMessageSize) bytes",
                byteOffset: offset)
        }
        return (flag == 1, length)
    }

    /// Drops consumed bytes once they are at least half the buffer, so each byte is moved at
    /// most a bounded number of times however the stream is cut. After the buffer held more than
    /// ``maxReservation`` bytes (a large message), the rest is moved to a buffer of its own size:
    /// keeping the large one would hold memory that ``bufferCapacity`` no longer counts. The
    /// choice depends on the bytes received, not on what the allocator gave.
    private mutating func dropConsumedBytes() {
        guard readIndex > 0, readIndex == buffer.count || readIndex >= buffer.count / 2 else { return }
        droppedByteCount += readIndex
        if max(peakCount, reservedCapacity) > Self.maxReservation {
            buffer = Array(buffer[readIndex...])
            reservedCapacity = 0
            peakCount = buffer.count
        } else if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else {
            buffer.removeFirst(readIndex)
        }
        readIndex = 0
    }
}
