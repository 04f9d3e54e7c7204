import CaptureFuzzing
import FleetEngineStatus
import FleetEngineWire

/// One libFuzzer run on the text forms of two gRPC headers (gRPC PROTOCOL-HTTP2). Byte 0 picks:
///
/// - 0: the rest as a `grpc-timeout` value, `GRPCTimeout(headerValue:)`: it parses exactly when it is
///   1 to 8 ASCII digits and one of the units `H M S m u n`, to the number the digits spell (at most
///   99999999), and prints back as the same text without leading zeros; its duration makes the same
///   timeout again through `GRPCTimeout(_:)`.
/// - 1: the rest as 12 bytes of a duration (seconds, attoseconds), through `GRPCTimeout(_:)`: the
///   timeout is never shorter than the duration (up to the longest the header carries) nor longer by
///   a whole unit, and its value fits in 8 digits.
/// - 2: the rest as a `grpc-message` value, `StatusMessageText.decode`, and as text (read as UTF-8),
///   `StatusMessageText.encode`: the encoding is printable ASCII without a bare `%`, decodes to the
///   text, and decoding text without `%` leaves it as it was.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let selector = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    switch selector % 3 {
    case 0: checkTimeoutText(rest)
    case 1: checkTimeoutDuration(rest)
    default: checkMessageText(rest)
    }
    return 0
}

let units: [UInt8: GRPCTimeout.Unit] = [
    UInt8(ascii: "H"): .hours, UInt8(ascii: "M"): .minutes, UInt8(ascii: "S"): .seconds,
    UInt8(ascii: "m"): .milliseconds, UInt8(ascii: "u"): .microseconds, UInt8(ascii: "n"): .nanoseconds,
]

func checkTimeoutText(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let digits = Array(text.utf8.dropLast())
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    let expectedUnit = text.utf8.last.flatMap { units[$0] }
    let valid = (1...8).contains(digits.count) && digits.allSatisfy(isDigit) && expectedUnit != nil
    guard let timeout = GRPCTimeout(headerValue: text) else {
        if valid { fail("\"\(text)\" is a valid grpc-timeout, refused") }
        return
    }
    guard valid, let expectedUnit else { fail("\"\(text)\" is no valid grpc-timeout, read as \(timeout)") }
    let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    guard timeout.value == value, timeout.unit == expectedUnit, (0...GRPCTimeout.maxValue).contains(timeout.value)
    else {
        fail("\"\(text)\" read as \(timeout.value) \(timeout.unit)")
    }
    let withoutLeadingZeros = String(value) + String(decoding: [expectedUnit.rawValue], as: UTF8.self)
    if timeout.headerValue != withoutLeadingZeros || timeout.description != timeout.headerValue {
        fail("\"\(text)\" printed back as \"\(timeout.headerValue)\"")
    }
    if timeout.duration != expectedUnit.duration * value { fail("\(timeout) lasts \(timeout.duration)") }
    let again = GRPCTimeout(timeout.duration)
    if again.duration != timeout.duration { fail("\(timeout) through its duration came back as \(again)") }
}

func checkTimeoutDuration(_ bytes: [UInt8]) {
    guard bytes.count >= 12 else { return }
    let seconds = bytes[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    let fraction = bytes[8..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) } % 1_000_000_000
    let duration = Duration(secondsComponent: seconds, attosecondsComponent: fraction * 1_000_000_000)
    let timeout = GRPCTimeout(duration)
    guard (0...GRPCTimeout.maxValue).contains(timeout.value) else { fail("\(duration) gave \(timeout.value)") }
    if duration <= .zero {
        if timeout != GRPCTimeout(value: 0, unit: .nanoseconds) { fail("\(duration) gave \(timeout), not 0n") }
        return
    }
    if duration >= GRPCTimeout.max.duration {
        if timeout != GRPCTimeout.max { fail("\(duration) gave \(timeout), not the longest timeout") }
        return
    }
    if timeout.duration < duration { fail("\(duration) gave the shorter \(timeout)") }
    if timeout.duration - duration >= timeout.unit.duration { fail("\(duration) gave \(timeout), a unit longer") }
    guard let parsed = GRPCTimeout(headerValue: timeout.headerValue), parsed == timeout else {
        fail("\(timeout) did not read back from \"\(timeout.headerValue)\"")
    }
}

func checkMessageText(_ bytes: [UInt8]) {
    let value = String(decoding: bytes, as: UTF8.self)
    let decoded = StatusMessageText.decode(value)
    if !value.utf8.contains(UInt8(ascii: "%")), !decoded.utf8.elementsEqual(value.utf8) {
        fail("\"\(value)\" has no %, decoded to \"\(decoded)\"")
    }
    for text in [value, decoded] {
        let encoded = StatusMessageText.encode(text)
        let wire = Array(encoded.utf8)
        for (index, byte) in wire.enumerated() where !(0x20...0x7E).contains(byte) {
            fail("\"\(text)\" encoded with byte \(byte) at \(index): \"\(encoded)\"")
        }
        for (index, byte) in wire.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < wire.count, wire[(index + 1)...(index + 2)].allSatisfy(isUpperHexDigit) else {
                fail("\"\(text)\" encoded with a bare % at \(index): \"\(encoded)\"")
            }
        }
        let back = StatusMessageText.decode(encoded)
        if !back.utf8.elementsEqual(text.utf8) { fail("\"\(text)\" encoded as \"\(encoded)\", decoded as \"\(back)\"") }
    }
}

func isUpperHexDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzHeaderValues_main")
public func fuzzHeaderValuesMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    LibFuzzerEntry.run(argumentCount, arguments) { fuzz($0, $1) }
}
