/// Cuts one direction of a TLS connection into records (RFC 8446 section 5.1, RFC 5246 section
/// 6.2): a 5-byte header (content type, version, length) and the fragment it announces.
///
/// Records may span TCP segments and a segment may hold several: whole records are handed over
/// straight from the bytes that arrived, and only a record's unfinished start waits in a buffer,
/// which never holds more than one record (at most ``maxFragmentLength`` and its header).
struct TLSRecordReader: Sendable {
    /// A header that cannot start a TLS record.
    struct Malformed: Error, Sendable {
        var message: String
    }

    /// The longest fragment a record may carry: 2^14 bytes of plaintext plus TLS 1.2's allowance
    /// for compression and protection (RFC 5246 section 6.2.3), more than TLS 1.3's 2^14 + 256.
    static let maxFragmentLength = (1 << 14) + 2048
    static let headerLength = 5

    private var pending: [UInt8] = []
    /// How many records were read.
    private(set) var recordCount = 0

    /// The bytes still waiting for the rest of their record.
    var bufferedByteCount: Int { pending.count }

    /// Whether the first bytes of a direction look like a TLS record header: a content type from
    /// ChangeCipherSpec (20) to application data (23), major version 3, and a length that fits.
    static func looksLikeRecord(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= headerLength else { return false }
        let start = bytes.startIndex
        let length = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
        return (20...23).contains(bytes[start]) && bytes[start + 1] == 3 && bytes[start + 2] <= 4
            && length <= maxFragmentLength
    }

    /// Reads the records `bytes` complete, in order, handing each to `body` as its header and its
    /// fragment.
    ///
    /// - Throws: ``Malformed`` for a header that is not a TLS record's; what follows it cannot be
    ///   framed, so the direction is not read further.
    mutating func read(
        _ bytes: ArraySlice<UInt8>,
        _ body: (_ header: ArraySlice<UInt8>, _ fragment: ArraySlice<UInt8>, _ number: Int) -> Void
    ) throws(Malformed) {
        var rest = bytes
        if !pending.isEmpty {
            // Complete the waiting record first, taking no more than it needs: the header, then
            // the fragment it announces.
            while true {
                let needed = try missingByteCount(of: pending[...])
                if needed == 0 { break }
                guard !rest.isEmpty else { return }
                let taken = min(needed, rest.count)
                pending += rest.prefix(taken)
                rest = rest.dropFirst(taken)
            }
            recordCount += 1
            body(pending[..<Self.headerLength], pending[Self.headerLength...], recordCount)
            pending.removeAll(keepingCapacity: true)
        }
        while !rest.isEmpty {
            let needed = try missingByteCount(of: rest)
            if needed > 0 {
                pending += rest
                return
            }
            let total = Self.headerLength + fragmentLength(rest)
            recordCount += 1
            let start = rest.startIndex
            body(rest[start..<start + Self.headerLength], rest[start + Self.headerLength..<start + total], recordCount)
            rest = rest.dropFirst(total)
        }
    }

    /// Drops what waits for the rest of a record (after a gap, the rest will not come).
    mutating func reset() { pending.removeAll() }

    /// How many more bytes the record that `bytes` begins needs: 0 when all of it is there.
    private func missingByteCount(of bytes: ArraySlice<UInt8>) throws(Malformed) -> Int {
        guard bytes.count >= Self.headerLength else { return Self.headerLength - bytes.count }
        let start = bytes.startIndex
        let type = bytes[start]
        guard (20...24).contains(type), bytes[start + 1] == 3 else {
            throw Malformed(
                message: "bytes \(TLSHex.string(bytes.prefix(3))) cannot start a TLS record (content type "
                    + "\(type), version \(bytes[start + 1]).\(bytes[start + 2]))")
        }
        let length = fragmentLength(bytes)
        guard length <= Self.maxFragmentLength else {
            throw Malformed(
                message: "a TLS record announces \(length) bytes, more than the \(Self.maxFragmentLength) "
                    + "a record may carry")
        }
        return max(0, Self.headerLength + length - bytes.count)
    }

    private func fragmentLength(_ bytes: ArraySlice<UInt8>) -> Int {
        Int(bytes[bytes.startIndex + 3]) << 8 | Int(bytes[bytes.startIndex + 4])
    }
}
