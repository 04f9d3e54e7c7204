import FleetEngineCodec
import FleetEngineJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The emulator's durable state (`--data DIR`): an append-only journal of writes, each on disk
/// before the call that made it is answered.
///
/// `DIR/trips.journal` holds entries in ``JournalFormat`` (`FleetEngineJournal`). An entry is
/// appended with one `write` and made durable with `fsync` before the write is acknowledged, so an
/// acknowledged write survives a crash. At start the journal is replayed as ``JournalFormat`` reads
/// it: a torn last write is dropped, damage anywhere else stops the start with an error. The
/// replayed state is then compacted (the last version of each trip still there, and the billing
/// reports): written to `trips.journal.tmp`, synced, and renamed over the journal. The same happens
/// while the emulator runs, with the store's state, whenever the journal has grown past
/// ``compactionFloor`` and to twice its length after the last compaction, so a long-running
/// emulator's journal stays in proportion to what it holds (and the rewrites cost, spread over
/// the appends, a constant each). The folder is
/// held (``DataFolderLock``, with `trips.lock`) while its journal is open, so a second emulator on
/// it is refused.
///
/// An append that fails (its `write` stops partway, as on a full disk, or its `fsync` fails) is cut
/// off again: the file is truncated to its length before the append, so the next append does not
/// land after a partial entry (which would make the next start refuse the journal) and a refused
/// write does not come back on replay. When that cut fails too, the journal is no longer trusted
/// and every later append is refused.
final class TripJournal: @unchecked Sendable {
    // @unchecked: `append` and `compact` are only called under the store's lock, so the descriptor,
    // its writes, the lengths and `unusable` are never touched by two threads at once, and the
    // length an append cuts back to is still the file's own when it cuts.
    private var descriptor: Int32
    /// The journal's length in bytes, as this journal wrote it.
    private var length: Int
    /// The length right after the journal was last compacted (or a compaction last failed).
    private var compactedLength: Int
    /// The length below which the journal is not compacted while the emulator runs.
    let compactionFloor: Int
    /// The default ``compactionFloor``: 4 MiB.
    static let defaultCompactionFloor = 4 << 20
    /// Why appends are refused, once a failed append could not be cut off: the file may end in
    /// bytes that are no entry, and anything appended after them would be lost at the next start.
    private var unusable: EmulatorError?
    /// The hold on the data folder, for as long as the journal is open.
    private let folder: DataFolderLock
    let path: String

    typealias Entry = JournalEntry

    /// Opens (creating if needed) the journal in `directory`, returns it and the entries to replay.
    ///
    /// - Throws: when another emulator (in this process or another) has the folder open: its
    ///   compaction would rename a new journal over the one the first still appends to, so every
    ///   write the first acknowledged after that would go to an unlinked file and be lost.
    static func open(
        directory: String, compactionFloor: Int = defaultCompactionFloor
    ) throws(EmulatorError) -> (TripJournal, [Entry]) {
        // Owner only: the trips hold riders' places and names (a folder that already exists keeps its mode).
        mkdir(directory, 0o700)
        let folder = try DataFolderLock(directory: directory)
        let path = directory + "/trips.journal"
        let entries = compacted(try readEntries(path: path))
        let (descriptor, length) = try replace(path: path, directory: directory, with: entries)
        let journal = TripJournal(
            descriptor: descriptor, length: length, folder: folder, path: path, compactionFloor: compactionFloor)
        return (journal, entries)
    }

    /// Writes `entries` to a new file, syncs it and renames it over the journal at `path`; returns
    /// the new journal's descriptor, open for appending, and its length. The descriptor is opened
    /// before the rename, so once the journal is replaced nothing is left that can fail. On failure
    /// the journal is as it was and the new file is removed.
    private static func replace(
        path: String, directory: String, with entries: [Entry]
    ) throws(EmulatorError) -> (descriptor: Int32, length: Int) {
        let temporary = path + ".tmp"
        let out = openFile(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        guard out >= 0 else { throw .storageFailed(errno, "cannot create \(temporary)") }
        // A file left by a crash keeps the mode it was created with; the journal is owner-only whatever came before.
        guard fchmod(out, 0o600) == 0 else {
            let failure = EmulatorError.storageFailed(errno, "cannot make \(temporary) owner-only")
            close(out)
            throw failure
        }
        var bytes: [UInt8] = []
        for entry in entries { JournalFormat.encode(entry, into: &bytes) }
        guard writeAll(out, bytes), fsync(out) == 0, rename(temporary, path) == 0 else {
            let failure = EmulatorError.storageFailed(errno, "cannot replace \(path) with \(temporary)")
            close(out)
            unlink(temporary)
            throw failure
        }
        let folder = openFolder(directory)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return (out, bytes.count)
    }

    /// Whether the journal is due to be compacted: longer than ``compactionFloor`` and than twice its
    /// length after the last compaction.
    var isDueForCompaction: Bool {
        unusable == nil && length > max(compactionFloor, 2 * compactedLength)
    }

    /// Rewrites the journal as `entries` (the store's state now, which must replay to what the
    /// journal does) and appends to the new one from then on.
    ///
    /// - Throws: when the new journal cannot be written; the journal is then as it was, still
    ///   appended to, and the next compaction waits until it has doubled again.
    func compact(_ entries: [Entry]) throws(EmulatorError) {
        let directory = String(path.dropLast("/trips.journal".count))
        do {
            let (replacement, newLength) = try Self.replace(path: path, directory: directory, with: entries)
            close(descriptor)
            descriptor = replacement
            length = newLength
            compactedLength = newLength
        } catch {
            compactedLength = length
            throw error
        }
    }

    /// The entries that replay to the same state as `entries`: the last version of each trip
    /// still there (in the order the trips first appeared), then the billing reports.
    static func compacted(_ entries: [Entry]) -> [Entry] {
        var trips: [String: (trip: Trip, updated: Timestamp?)] = [:]
        var order: [String] = []
        var reports: [ReportBillableTripRequest] = []
        for entry in entries {
            switch entry {
            case .put(let trip, let updated):
                if trips[trip.name] == nil { order.append(trip.name) }
                trips[trip.name] = (trip, updated)
            case .delete(let name):
                trips[name] = nil
            case .billing(let report):
                reports.append(report)
            }
        }
        var written = Set<String>()
        let puts = order.compactMap { name -> Entry? in
            guard let kept = trips[name], written.insert(name).inserted else { return nil }
            return .put(kept.trip, updated: kept.updated)
        }
        return puts + reports.map(Entry.billing)
    }

    private init(descriptor: Int32, length: Int, folder: DataFolderLock, path: String, compactionFloor: Int) {
        self.descriptor = descriptor
        self.length = length
        self.compactedLength = length
        self.folder = folder
        self.path = path
        self.compactionFloor = compactionFloor
    }

    deinit { close(descriptor) }

    /// Appends an entry and waits until it is on disk.
    ///
    /// - Throws: when the entry is not on disk; the journal is then as it was before the call (cut
    ///   back to its length before the write). When it cannot be cut back, this append and every
    ///   later one throw, naming the journal.
    func append(_ entry: Entry) throws(EmulatorError) {
        if let unusable { throw unusable }
        var bytes: [UInt8] = []
        JournalFormat.encode(entry, into: &bytes)
        // The journal is opened O_APPEND and only this type writes it, under the store's lock (and
        // the folder's lock keeps other emulators out): its length now is where this entry starts.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .storageFailed(errno, "cannot write \(path): cannot read its length")
        }
        let length = status.st_size
        if Self.writeAll(descriptor, bytes), fsync(descriptor) == 0 {
            self.length = Int(length) + bytes.count
            return
        }
        let writeErrno = errno
        let writeFailure = EmulatorError.storageFailed(writeErrno, "cannot write \(path)")
        // Left in place, a partial entry would make the next start refuse the journal once another
        // entry follows it, and a whole one whose `fsync` failed would be replayed though refused.
        // The cut is synced so that a refused entry cannot reach the disk after it either.
        guard ftruncate(descriptor, length) == 0, fsync(descriptor) == 0 else {
            let failure = EmulatorError(
                .storageFailed,
                "\(path) can no longer be trusted: a write to it failed (\(EmulatorError.systemText(writeErrno))) "
                    + "and cutting it back to \(length) bytes failed too (\(EmulatorError.systemText(errno))); it takes no more writes "
                    + "until the emulator restarts",
                cause: writeFailure.cause)
            unusable = failure
            throw failure
        }
        throw EmulatorError(
            .storageFailed, writeFailure.message + "; the failed write was cut off, the journal is as before it",
            cause: writeFailure.cause)
    }

    private static func readEntries(path: String) throws(EmulatorError) -> [Entry] {
        let input = openFile(path, O_RDONLY, 0)
        if input < 0 {
            if errno == ENOENT { return [] }
            throw .storageFailed(errno, "cannot open \(path)")
        }
        defer { close(input) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 { throw .storageFailed(errno, "cannot read \(path)") }
            if count == 0 { break }
            data += chunk[0..<count]
        }
        do throws(JournalCorruption) {
            return try JournalFormat.entries(in: data, path: path)
        } catch {
            throw EmulatorError(.corruptJournal, error.message, cause: error.cause)
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += count
        }
        return true
    }
}

/// Opens a file of the data folder close-on-exec (a child process the emulator's process starts
/// would otherwise inherit the descriptors and keep the journal open for as long as it runs) and
/// without following a symbolic link (`O_NOFOLLOW`): a link put in place of the journal or its
/// temporary file would otherwise have the emulator read, or overwrite, whatever file it names.
/// A link fails with `ELOOP`, which ``EmulatorError/storageFailed(_:_:)`` words as such.
func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags | O_CLOEXEC | O_NOFOLLOW, mode)
}

/// Opens the data folder itself, close-on-exec, to sync it: following a symbolic link, since the
/// folder may be named through one (only the files inside it are refused as links).
private func openFolder(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
}
