import CLibFuzzer
import CaptureFuzzing
import FleetEngineCapture

/// The name the key log is read under: what every error message must start with.
let source = "fuzz.keylog"

/// One libFuzzer run: the input is the text of an NSS key log (RFC 9850), read by
/// `TLSKeyLog.entries(parsing:source:)` and `TLSKeyLog(parsing:source:)`.
///
/// Both must succeed or both throw the same `CaptureError`: code `malformedKeyLog`, a message that
/// starts with the source and ` line N:` for a line N of the input, the byte offset where that line
/// starts, and none of the input's secrets (the third field of any line that has three fields and
/// whose third is at least 16 hex digits). What they return must be the input's lines: one entry per
/// line that is not blank or a comment, with its label as written and its client random and secret
/// the bytes its hex spells (in either case). No entry's description shows its secret.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let lines = KeyLogLine.lines(of: input)

    let entries: [TLSKeyLogEntry]
    do throws(CaptureError) {
        entries = try TLSKeyLog.entries(parsing: input, source: source)
    } catch {
        check(error, lines: lines)
        // The initializer reads the same lines (here from an array slice, another collection).
        do throws(CaptureError) {
            _ = try TLSKeyLog(parsing: Array(input)[...], source: source)
            fail("entries(parsing:) threw \(error); init(parsing:) succeeded")
        } catch let again {
            if again.code != error.code || again.message != error.message || again.byteOffset != error.byteOffset {
                fail("entries(parsing:) threw \(error); init(parsing:) threw \(again)")
            }
        }
        return 0
    }
    let log: TLSKeyLog
    do throws(CaptureError) {
        log = try TLSKeyLog(parsing: Array(input)[...], source: source)
    } catch {
        fail("entries(parsing:) succeeded; init(parsing:) threw \(error)")
    }
    checkEntries(entries, lines: lines)
    if log.connectionCount > entries.count || log.isEmpty != (log.connectionCount == 0) {
        fail("a log of \(entries.count) entries holds \(log.connectionCount) connections (isEmpty: \(log.isEmpty))")
    }
    return 0
}

/// One line of the input, cut as the key log format says: up to a line feed, without the trailing
/// carriage return and blanks.
struct KeyLogLine {
    /// The line's number, from 1.
    var number: Int
    /// Where the line starts in the input.
    var byteOffset: Int
    /// Its fields, separated by spaces and tabs, after blanks and a carriage return at its ends.
    var fields: [ArraySlice<UInt8>]

    /// Whether it holds no entry: blank, or a `#` comment.
    var isBlankOrComment: Bool { fields.isEmpty || fields[0].first == UInt8(ascii: "#") }

    /// The third field when the line has three and it is at least 16 hex digits: a secret that no
    /// error message may show.
    var secret: String? {
        guard fields.count == 3, fields[2].count >= 16, fields[2].allSatisfy(isHexDigit) else { return nil }
        return String(decoding: fields[2], as: UTF8.self)
    }

    static func lines(of input: UnsafeBufferPointer<UInt8>) -> [KeyLogLine] {
        var lines: [KeyLogLine] = []
        var start = 0
        while start < input.count {
            let end = input[start...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
            var line = input[start..<end]
            while let last = line.last, last == UInt8(ascii: "\r") || isBlank(last) { line.removeLast() }
            while let first = line.first, isBlank(first) { line.removeFirst() }
            lines.append(
                KeyLogLine(
                    number: lines.count + 1, byteOffset: start,
                    fields: line.split(whereSeparator: isBlank).map { Array($0)[...] }))
            start = end + 1
        }
        return lines
    }
}

func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == 0x09 }

func isHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
}

/// Lowercase hex of `bytes`.
func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
}

/// Checks an error of the parser: its code, where it says it is, and that it shows no secret.
func check(_ error: CaptureError, lines: [KeyLogLine]) {
    guard error.code == .malformedKeyLog else {
        fail("the key log parser threw an undocumented \(error.code): \(error)")
    }
    let prefix = "\(source) line "
    guard error.message.hasPrefix(prefix) else {
        fail("the error message does not start with \"\(prefix)\": \(error.message)")
    }
    let rest = error.message.dropFirst(prefix.count)
    guard let colon = rest.firstIndex(of: ":"), let number = Int(rest[..<colon]),
        (1...lines.count).contains(number)
    else {
        fail("the error message names no line among the input's \(lines.count): \(error.message)")
    }
    let line = lines[number - 1]
    if line.isBlankOrComment {
        fail("the error is about line \(number), a blank line or a comment: \(error.message)")
    }
    if error.byteOffset != Int64(line.byteOffset) {
        fail(
            "the error about line \(number) is at byte \(String(describing: error.byteOffset)), not \(line.byteOffset)")
    }
    // The line's label may be printed; it is not a secret, though it may spell one of the input's.
    let label = String(decoding: line.fields[0], as: UTF8.self)
    let message = error.message.replacingAll(label, with: "").lowercased()
    for secret in lines.compactMap(\.secret) where message.contains(secret.lowercased()) {
        fail("the error message shows a secret of the input: \(error.message)")
    }
}

/// Checks that the entries are the input's lines that hold one, in order, read exactly.
func checkEntries(_ entries: [TLSKeyLogEntry], lines: [KeyLogLine]) {
    let entryLines = lines.filter { !$0.isBlankOrComment }
    guard entries.count == entryLines.count else {
        fail("\(entries.count) entries from \(entryLines.count) lines that are not blank or comments")
    }
    for (entry, line) in zip(entries, entryLines) {
        guard line.fields.count == 3 else {
            fail("line \(line.number) has \(line.fields.count) fields and gave an entry")
        }
        let fields = line.fields.map { String(decoding: $0, as: UTF8.self) }
        if entry.label.rawValue != fields[0] {
            fail("line \(line.number): label \(entry.label.rawValue), written \(fields[0])")
        }
        if hex(entry.clientRandom) != fields[1].lowercased() {
            fail("line \(line.number): client random \(hex(entry.clientRandom)), written \(fields[1])")
        }
        let secretHex = hex(entry.secret)
        if secretHex != fields[2].lowercased() {
            fail("line \(line.number): a \(entry.secret.count)-byte secret that is not the one written")
        }
        // The description names the label and the client random, which may happen to hold the
        // secret's digits; past them it must not show the secret.
        let shown = entry.description.replacingAll(entry.label.rawValue, with: "")
            .replacingAll(hex(entry.clientRandom), with: "")
        if entry.secret.count >= 8, shown.contains(secretHex) {
            fail("line \(line.number): the entry's description shows its secret: \(entry.description)")
        }
    }
}

extension String {
    /// The string with every occurrence of `target` removed and `replacement` put in its place
    /// (without Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzTLSKeyLog_main")
public func fuzzTLSKeyLogMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzz($0, $1) }
}
