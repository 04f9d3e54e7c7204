import CaptureFuzzing
import FleetEngineWire
import Foundation

@testable import FleetTripsInput

/// One libFuzzer run on the readers `fleettrips` reads its input with (`@testable`, as the fuzz build
/// is a debug build). Byte 0 picks the reader: `% 3` is 0 for `Base64TextDecoder`, 1 for
/// `HexTextDecoder`, 2 for `FramedMessageReader` (then `/ 3 % 3` picks raw, base64 or hex text, and
/// `/ 9 % 2` identity or gzip messages, of at most 1 KiB).
///
/// Every reader is given the rest whole and in pieces whose sizes come from a hash of the input: both
/// must give the same bytes (messages, their numbers and offsets) or the same error, which is a
/// `FleetTripsError` of a documented code with a message. Base64 must agree with Foundation's decoder
/// where both accept, and read back any bytes Foundation encodes (with line breaks); hex must accept
/// exactly the digit pairs (whitespace anywhere) and give their bytes; a raw identity stream's
/// messages must be the payloads its frames' headers say, at the offsets of those headers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let whole = UnsafeBufferPointer(start: data, count: size)
    guard let selector = whole.first else { return 0 }
    let rest = Array(whole.dropFirst())
    let seed = ChunkSizes.hash(whole)
    switch selector % 3 {
    case 0: checkBase64(rest, seed: seed)
    case 1: checkHex(rest, seed: seed)
    default:
        let forms: [BinaryForm] = [.raw, .base64, .hex]
        let encoding: MessageEncoding = (selector / 9) % 2 == 0 ? .identity : .gzip
        checkFramed(rest, form: forms[Int(selector / 3 % 3)], encoding: encoding, seed: seed)
    }
    return 0
}

/// What a reader made of a text: its bytes, or its error's code and message.
enum Outcome: Equatable {
    case bytes([UInt8])
    case failed(FleetTripsError.Code, String)
}

/// The pieces `text` is cut into: sizes from `seed`, or the whole text when `seed` is nil.
func pieces(of text: [UInt8], seed: UInt64?) -> [ArraySlice<UInt8>] {
    guard let seed else { return [text[...]] }
    var sizes = ChunkSizes(seed: seed)
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    while start < text.count {
        let end = min(text.count, start + sizes.next())
        result.append(text[start..<end])
        start = end
    }
    return result
}

func base64(_ text: [UInt8], seed: UInt64?) -> Outcome {
    var decoder = Base64TextDecoder()
    var output: [UInt8] = []
    do throws(FleetTripsError) {
        for piece in pieces(of: text, seed: seed) { try decoder.decode(piece, into: &output) }
        try decoder.finish(into: &output)
        return .bytes(output)
    } catch {
        return .failed(error.code, error.message)
    }
}

func checkBase64(_ text: [UInt8], seed: UInt64) {
    let outcome = base64(text, seed: nil)
    checkSame(outcome, base64(text, seed: seed), what: "base64")
    // Foundation reads one padded encoding in the standard alphabet, without whitespace.
    var compact = text.filter { !TextInput.isWhitespace($0) }.map {
        $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
    }
    if !compact.contains(UInt8(ascii: "=")) {
        compact += [UInt8](repeating: UInt8(ascii: "="), count: (4 - compact.count % 4) % 4)
    }
    if case .bytes(let bytes) = outcome, let foundation = Data(base64Encoded: Data(compact)), Array(foundation) != bytes
    {
        fail(
            "base64 \"\(String(decoding: text, as: UTF8.self))\" read as \(bytes), Foundation reads \(Array(foundation))"
        )
    }
    let encoded = Array(Data(text).base64EncodedString(options: [.lineLength64Characters]).utf8)
    let back = base64(encoded, seed: seed)
    if back != .bytes(text) { fail("Foundation's base64 of \(text) read back as \(back)") }
}

func hex(_ text: [UInt8], seed: UInt64?) -> Outcome {
    var decoder = HexTextDecoder()
    var output: [UInt8] = []
    do throws(FleetTripsError) {
        for piece in pieces(of: text, seed: seed) { try decoder.decode(piece, into: &output) }
        try decoder.finish()
        return .bytes(output)
    } catch {
        return .failed(error.code, error.message)
    }
}

func checkHex(_ text: [UInt8], seed: UInt64) {
    let outcome = hex(text, seed: nil)
    checkSame(outcome, hex(text, seed: seed), what: "hex")
    let digits = text.filter { !TextInput.isWhitespace($0) }
    let values = digits.compactMap { Int(String(decoding: [$0], as: UTF8.self), radix: 16) }
    let expected: [UInt8]? =
        values.count != digits.count || values.count % 2 == 1
        ? nil : stride(from: 0, to: values.count, by: 2).map { UInt8(values[$0] << 4 | values[$0 + 1]) }
    switch (outcome, expected) {
    case (.bytes(let bytes), let expected?) where bytes == expected: break
    case (.failed, nil): break
    default:
        fail(
            "hex \"\(String(decoding: text, as: UTF8.self))\" read as \(outcome), expected \(String(describing: expected))"
        )
    }
}

/// A message a framed reader handed on: its payload, number and stream offset.
struct Delivered: Equatable {
    var payload: [UInt8]
    var number: Int
    var offset: Int
}

func framed(
    _ text: [UInt8], form: BinaryForm, encoding: MessageEncoding, seed: UInt64?
) -> ([Delivered], Outcome) {
    var reader = FramedMessageReader(form: form, maxMessageSize: 1024, encoding: encoding)
    var delivered: [Delivered] = []
    let collect = { (payload: [UInt8], number: Int, offset: Int) throws(FleetTripsError) in
        delivered.append(Delivered(payload: payload, number: number, offset: offset))
    }
    do throws(FleetTripsError) {
        for piece in pieces(of: text, seed: seed) { try reader.read(piece, collect) }
        try reader.finish(collect)
        return (delivered, .bytes([]))
    } catch {
        return (delivered, .failed(error.code, error.message))
    }
}

func checkFramed(_ text: [UInt8], form: BinaryForm, encoding: MessageEncoding, seed: UInt64) {
    let (messages, outcome) = framed(text, form: form, encoding: encoding, seed: nil)
    let (piecewise, piecewiseOutcome) = framed(text, form: form, encoding: encoding, seed: seed)
    checkSame(outcome, piecewiseOutcome, what: "framed \(form)")
    if messages != piecewise { fail("framed \(form): whole gave \(messages.count), in pieces \(piecewise.count)") }
    if case .failed(let code, _) = outcome, code != .invalidFraming, form == .raw {
        fail("framed raw text failed with \(code)")
    }
    for (index, message) in messages.enumerated() where message.number != index + 1 {
        fail("framed \(form): message \(index + 1) was numbered \(message.number)")
    }
    guard form == .raw, encoding == .identity else { return }
    for message in messages {
        let header = text.dropFirst(message.offset).prefix(5)
        guard header.count == 5, header.first == 0 else { fail("framed raw: no identity frame at \(message.offset)") }
        let length = header.dropFirst().reduce(0) { $0 << 8 | Int($1) }
        if Array(text.dropFirst(message.offset + 5).prefix(length)) != message.payload || length > 1024 {
            fail(
                "framed raw: message \(message.number) is not the \(length) bytes its frame at \(message.offset) holds")
        }
    }
}

/// Whole and piecewise reading must agree; a failure must be of a documented code, with a message.
func checkSame(_ whole: Outcome, _ piecewise: Outcome, what: String) {
    if whole != piecewise { fail("\(what): whole text gave \(whole), in pieces \(piecewise)") }
    guard case .failed(let code, let message) = whole else { return }
    if ![FleetTripsError.Code.invalidInputText, .invalidFraming].contains(code) || message.isEmpty {
        fail("\(what): failed with \(code) \"\(message)\"")
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzCLIReaders_main")
public func fuzzCLIReadersMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    LibFuzzerEntry.run(argumentCount, arguments) { fuzz($0, $1) }
}
