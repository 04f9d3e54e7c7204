import FleetEngineCodec

/// The format of the emulator's journal (`DIR/trips.journal`), a file of entries: a 4-byte
/// little-endian payload length, a 4-byte little-endian CRC-32 of kind and payload, a kind byte
/// (1 a trip as stored, 2 a deletion by name, 3 a billing report, 4 a trip as stored after when it
/// last changed: 8 bytes of seconds and 4 of nanoseconds, little-endian; kind 1 is still read,
/// from journals written before), then the payload.
///
/// Reading it is what a start does: an incomplete or corrupt entry at the very end (a write that
/// never finished, so never acknowledged) is dropped, as are zeros to the end of the file (the
/// length a crash can leave of such a write), and a corrupt entry anywhere else is an error rather
/// than data lost silently. An entry whose length runs past the end counts as torn only when no
/// whole entry follows it; otherwise its length field is damaged.
///
/// A module of its own, with nothing of the emulator's server, so that its fuzzer builds in little time.
package enum JournalFormat {
    /// Appends `entry` in the journal's format to `bytes`: its length, checksum, kind and payload.
    package static func encode(_ entry: JournalEntry, into bytes: inout [UInt8]) {
        var payload: [UInt8]
        let kind: UInt8
        switch entry {
        case .put(let trip, nil):
            kind = 1
            payload = trip.serializedBytes()
        case .put(let trip, let updated?):
            kind = 4
            payload = []
            let seconds = UInt64(bitPattern: updated.seconds)
            appendLittleEndian(UInt32(truncatingIfNeeded: seconds), to: &payload)
            appendLittleEndian(UInt32(truncatingIfNeeded: seconds >> 32), to: &payload)
            appendLittleEndian(UInt32(bitPattern: updated.nanos), to: &payload)
            payload += trip.serializedBytes()
        case .delete(let name):
            kind = 2
            payload = Array(name.utf8)
        case .billing(let report):
            kind = 3
            payload = report.serializedBytes()
        }
        payload.insert(kind, at: 0)
        appendLittleEndian(UInt32(payload.count - 1), to: &bytes)
        appendLittleEndian(CRC32.checksum(payload), to: &bytes)
        bytes += payload
    }

    /// The entries of journal bytes `data` (the contents of the journal at `path`, which the errors
    /// name), as a start replays them: a torn or unacknowledged last entry and zeros to the end are
    /// dropped, any other damage is an error.
    ///
    /// - Throws: ``JournalCorruption`` saying what is wrong at which byte.
    package static func entries(in data: [UInt8], path: String) throws(JournalCorruption) -> [JournalEntry] {
        var entries: [JournalEntry] = []
        var offset = 0
        while offset < data.count {
            guard data.count - offset >= 9 else { break }  // a torn header at the end
            let length = Int(readLittleEndian(data, offset))
            let crc = readLittleEndian(data, offset + 4)
            let start = offset + 8
            guard data.count - start >= length + 1 else {
                // A torn payload at the end, unless a whole entry follows: then this entry's length
                // field is what is damaged, and dropping the rest would lose acknowledged writes.
                if let later = firstWholeEntry(in: data, from: offset + 1) {
                    throw JournalCorruption(
                        "\(path) is corrupt at byte \(offset): its length (\(length)) runs past the end, "
                            + "yet a whole entry starts at byte \(later)")
                }
                break
            }
            let payload = Array(data[start..<(start + length + 1)])
            let end = start + length + 1
            guard CRC32.checksum(payload) == crc else {
                if end == data.count { break }  // the last entry, never acknowledged
                // Zeros to the end: after a crash a file can have grown by a write whose data never
                // reached the disk (never acknowledged either). No entry is all zeros (there is no
                // kind 0), so nothing written is dropped with them.
                if data[offset...].allSatisfy({ $0 == 0 }) { break }
                throw JournalCorruption("\(path) is corrupt at byte \(offset): checksum mismatch")
            }
            let body = payload.dropFirst()
            guard (1...4).contains(payload[0]) else {
                throw JournalCorruption(
                    "\(path) has an entry of unknown kind \(payload[0]) at byte \(offset)")
            }
            do throws(CodecError) {
                switch payload[0] {
                case 1: entries.append(.put(try Trip(serializedBytes: body), updated: nil))
                case 2: entries.append(.delete(String(decoding: body, as: UTF8.self)))
                case 3: entries.append(.billing(try ReportBillableTripRequest(serializedBytes: body)))
                default:
                    guard body.count >= 12 else {
                        throw CodecError(
                            code: .truncated, message: "\(body.count) bytes, too short for when the trip last changed")
                    }
                    let fields = Array(body.prefix(12))
                    let seconds = UInt64(readLittleEndian(fields, 0)) | UInt64(readLittleEndian(fields, 4)) << 32
                    let updated = Timestamp(
                        seconds: Int64(bitPattern: seconds), nanos: Int32(bitPattern: readLittleEndian(fields, 8)))
                    entries.append(.put(try Trip(serializedBytes: body.dropFirst(12)), updated: updated))
                }
            } catch {
                throw JournalCorruption(
                    "\(path) has an unreadable entry at byte \(offset): \(error)", cause: error)
            }
            offset = end
        }
        return entries
    }

    /// The offset of the first place at or after `from` where a complete entry with a matching
    /// checksum and a known kind starts, if any. Only asked when an entry claims more bytes than are
    /// left, to tell a torn last write (a prefix of one entry, with no whole entry inside it) from a
    /// damaged length field in the middle of the journal.
    private static func firstWholeEntry(in data: [UInt8], from: Int) -> Int? {
        var candidate = from
        while data.count - candidate >= 9 {
            let length = Int(readLittleEndian(data, candidate))
            let start = candidate + 8
            if data.count - start >= length + 1, (1...4).contains(data[start]),
                CRC32.checksum(Array(data[start..<(start + length + 1)])) == readLittleEndian(data, candidate + 4)
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32($1 * 8) }
    }
}
