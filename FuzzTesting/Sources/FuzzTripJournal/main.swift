import CaptureFuzzing
@testable import FleetEngineJournal

/// The path the journal is read under: what every error message must start with.
let path = "fuzz-data/trips.journal"

/// One libFuzzer run: the input as the bytes of the emulator's journal (`trips.journal`), read as a
/// start replays it (`JournalFormat.entries(in:path:)`; `@testable`, as the fuzz build is a debug build).
///
/// Checks: a refusal is a `JournalCorruption` with a message that starts with the path and names a byte
/// of the input where the damage is; what is read, written back in the journal's format, reads back
/// to the same bytes again; that journal followed by zeros (the length a crash can leave of a write
/// that never reached the disk) reads as itself, and cut anywhere (a torn last write) reads as a
/// prefix of itself, never as an error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let entries: [JournalEntry]
    do throws(JournalCorruption) {
        entries = try JournalFormat.entries(in: input, path: path)
    } catch {
        checkRefusal(error, length: input.count)
        return 0
    }
    let written = encoded(entries)
    guard let again = read(written, what: "the entries read, written back") else { return 0 }
    if encoded(again) != written { fail("\(entries.count) entries read, written back and read again changed") }
    if let padded = read(written + [UInt8](repeating: 0, count: 1 + size % 64), what: "the journal and zeros"),
        encoded(padded) != written
    {
        fail("the journal followed by zeros read as \(padded.count) entries, not \(entries.count)")
    }
    var cuts = ChunkSizes(seed: ChunkSizes.hash(UnsafeBufferPointer(start: data, count: size)))
    var cut = cuts.next()
    while cut < written.count {
        if let torn = read(Array(written[..<cut]), what: "the journal cut at byte \(cut)") {
            let prefix = encoded(torn)
            if prefix.count > cut || prefix != Array(written[..<prefix.count]) {
                fail("the journal cut at byte \(cut) read as \(torn.count) entries that are not its start")
            }
        }
        cut += cuts.next()
    }
    return 0
}

/// The entries of `bytes`, which must read without an error.
func read(_ bytes: [UInt8], what: String) -> [JournalEntry]? {
    do throws(JournalCorruption) {
        return try JournalFormat.entries(in: bytes, path: path)
    } catch {
        fail("\(what) (\(bytes.count) bytes) was refused: \(error.message)")
    }
}

func encoded(_ entries: [JournalEntry]) -> [UInt8] {
    var bytes: [UInt8] = []
    for entry in entries { JournalFormat.encode(entry, into: &bytes) }
    return bytes
}

/// A refusal must start with the path and name a byte inside the input.
func checkRefusal(_ error: JournalCorruption, length: Int) {
    guard error.message.hasPrefix(path + " ") else {
        fail("the journal was refused with a message that does not start with its path: \(error.message)")
    }
    guard let range = error.message.firstRange(of: " at byte "),
        let offset = Int(error.message[range.upperBound...].prefix { $0.isASCII && $0.isNumber }),
        offset < length
    else {
        fail("the refusal names no byte of the \(length) bytes: \(error.message)")
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzTripJournal_main")
public func fuzzTripJournalMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    LibFuzzerEntry.run(argumentCount, arguments) { fuzz($0, $1) }
}
