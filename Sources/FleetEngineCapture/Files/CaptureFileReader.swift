/// Reads packets out of a pcap or pcapng capture file, from bytes handed to it piece by piece.
///
/// The reader does no I/O ("sans-IO"): the caller appends bytes as it reads them from a file, a
/// pipe or a socket, and asks for packets until ``nextPacket()`` answers `nil` ("needs more
/// input"). At the end of the input, ``finish()`` says whether the capture stopped cleanly or in
/// the middle of a header, record or block.
///
/// ```swift
/// var reader = CaptureFileReader()
/// while let chunk = try read(65536) {
///     reader.append(chunk)
///     while let packet = try reader.nextPacket() { handle(packet) }
/// }
/// try reader.finish()
/// ```
///
/// The format is found from the first four bytes: a pcap magic number (microsecond or
/// nanosecond timestamps, either byte order) or a pcapng Section Header Block. Memory stays
/// bounded whatever the capture's size: bytes are dropped once their packet has been returned,
/// so the reader holds what was appended and not consumed, plus at most one partial record.
/// Each returned packet owns a copy of its bytes, so keeping packets never pins the reader's
/// buffer.
///
/// After an error the reader is failed: ``nextPacket()`` and ``finish()`` throw the same error
/// again, because the bytes after a broken length cannot be framed.
public struct CaptureFileReader: Sendable {
    /// The kind of capture file being read.
    public enum Format: Hashable, Sendable {
        /// A classic pcap file: timestamps in microseconds or (`nanosecond`) nanoseconds, header
        /// fields big- or little-endian.
        case pcap(nanosecond: Bool, bigEndian: Bool)
        /// A pcapng file (draft-ietf-opsawg-pcapng); each section has its own byte order.
        case pcapng
    }

    /// The longest packet accepted; a record or block claiming more is malformed.
    public let maxRecordLength: Int

    /// The file format, once the first four bytes have been seen.
    public internal(set) var format: Format?

    /// The input not yet consumed, possibly preceded by consumed bytes awaiting compaction.
    var buffer: [UInt8] = []
    /// The index in ``buffer`` of the first byte not yet consumed.
    var readIndex = 0
    /// The file offset of `buffer[0]`.
    var bufferStartOffset: Int64 = 0
    /// The error that stopped the reader, rethrown by every later call.
    var failure: CaptureError?

    /// Whether the pcap global header, or the first pcapng Section Header Block, has been read.
    var fileHeaderRead = false
    /// Whether pcap header fields, or the current pcapng section's fields, are big-endian.
    var bigEndian = false
    /// The link type of every packet in a pcap file.
    var pcapLinkType = LinkType.ethernet
    /// The interfaces described so far in the current pcapng section, numbered from 0.
    var interfaces: [PcapNGInterface] = []
    /// The TLS key logs of Decryption Secrets Blocks not yet taken (``takeTLSKeyLogs()``).
    var tlsKeyLogs: [(bytes: [UInt8], byteOffset: Int64)] = []
    /// The timestamp of the last packet returned, which a pcapng Simple Packet Block reuses.
    var lastTimestamp = CaptureTimestamp(seconds: 0, nanoseconds: 0)

    /// Creates a reader that rejects packets longer than `maxRecordLength` bytes (16 MiB unless
    /// told otherwise), so that a corrupt length cannot make it buffer gigabytes.
    public init(maxRecordLength: Int = 16 << 20) {
        // Lengths in both formats are 32-bit, so a larger limit means no limit.
        self.maxRecordLength = min(max(0, maxRecordLength), Int(UInt32.max))
    }

    /// How many bytes of the input have been consumed: the file offset of the next header,
    /// record or block.
    public var bytesConsumed: Int64 {
        bufferStartOffset + Int64(readIndex)
    }

    /// The number of bytes appended and not yet consumed.
    var unconsumedByteCount: Int {
        buffer.count - readIndex
    }

    /// Adds the next bytes of the capture.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactBuffer()
        bytes.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
    }

    /// Adds the next bytes of the capture.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        compactBuffer()
        let appended: Void? = bytes.withContiguousStorageIfAvailable { buffer.append(contentsOf: $0) }
        if appended == nil {
            buffer.append(contentsOf: bytes)
        }
    }

    /// The next packet, or `nil` when the bytes appended so far do not hold a whole one.
    ///
    /// Skips pcapng blocks that carry no packet (interface statistics, name resolution, custom
    /// and unknown blocks). Throws ``CaptureError/Code/notACapture`` when the input starts with
    /// neither format's magic number and ``CaptureError/Code/malformedRecord`` for a header,
    /// record or block that contradicts itself; the error's `byteOffset` is where it starts.
    public mutating func nextPacket() throws(CaptureError) -> CapturedPacket? {
        if let failure { throw failure }
        do {
            while true {
                switch format {
                case nil:
                    guard try detectFormat() else { return nil }
                case .pcap(let nanosecond, _):
                    guard fileHeaderRead else {
                        guard try readPcapFileHeader() else { return nil }
                        continue
                    }
                    return try readPcapRecord(nanosecond: nanosecond)
                case .pcapng:
                    switch try readPcapNGBlock() {
                    case .needsMoreInput: return nil
                    case .packet(let packet): return packet
                    case .consumed: continue
                    }
                }
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Checks, at the end of the input, that the capture did not stop inside a header, record
    /// or block.
    ///
    /// Throws ``CaptureError/Code/truncatedCapture`` with the offset where the incomplete part
    /// starts (0 for an input too short for the file header), or the error that stopped the
    /// reader. Packets still buffered and not yet taken with ``nextPacket()`` are read (and
    /// dropped) to find where the input really ends.
    public func finish() throws(CaptureError) {
        if let failure { throw failure }
        var rest = self
        while try rest.nextPacket() != nil {}
        guard rest.fileHeaderRead else {
            let what = rest.format == .pcapng ? "the first pcapng Section Header Block" : "the capture file header"
            throw CaptureError(
                code: .truncatedCapture,
                message: "the input ended after \(rest.unconsumedByteCount) bytes, inside \(what)",
                byteOffset: 0
            )
        }
        guard rest.unconsumedByteCount == 0 else {
            throw CaptureError(
                code: .truncatedCapture,
                message: "the input ended \(rest.unconsumedByteCount) bytes into \(rest.describeIncompletePart())",
                byteOffset: rest.bytesConsumed
            )
        }
    }

    /// Drops consumed bytes from the front of the buffer when that costs no more than the bytes
    /// consumed since the last time, so that byte-by-byte input stays linear.
    private mutating func compactBuffer() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if readIndex >= buffer.count - readIndex {
            buffer.removeSubrange(0..<readIndex)
        } else {
            return
        }
        bufferStartOffset += Int64(readIndex)
        readIndex = 0
    }

    /// What the unconsumed bytes at the end of the input were the start of, for ``finish()``.
    private func describeIncompletePart() -> String {
        let available = unconsumedByteCount
        switch format {
        case .pcap(_, let bigEndian):
            guard available >= PcapFormat.recordHeaderLength else { return "a 16-byte pcap record header" }
            let length = withUnreadBytes { CaptureFieldReader($0, bigEndian: bigEndian).uint32(at: 8) }
            return "a pcap record of \(length) bytes"
        case .pcapng, nil:
            guard available >= 8 else { return "a pcapng block header" }
            return "a pcapng block"
        }
    }

    /// Runs `body` over the bytes appended and not yet consumed.
    @inline(__always)
    func withUnreadBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let start = readIndex
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// A copy of `count` unread bytes starting `start` bytes after the read position, for a packet
    /// to own.
    @inline(__always)
    func copyUnreadBytes(from start: Int, count: Int) -> ArraySlice<UInt8> {
        let from = readIndex + start
        return ArraySlice(Array(buffer[from..<(from + count)]))
    }
}
