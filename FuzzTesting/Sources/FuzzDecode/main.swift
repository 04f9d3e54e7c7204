import CLibFuzzer
import FleetEngineCodec

/// Every message type, so the first input byte can pick one.
private let messageTypes = MessageRegistry.allMessageTypes

/// One libFuzzer run: the first byte picks a message type and whether the rest is read as
/// binary or as JSON. Decoding must either succeed or throw `CodecError` (anything else, a crash
/// or a sanitizer report, is a finding), and what decodes must survive its own round trips:
/// - binary: decode, encode, decode again gives the same value, and encoding it again the same bytes;
/// - JSON: what parses prints, and what prints parses back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let selector = Int(start[0])
    let type = messageTypes[(selector >> 1) % messageTypes.count]
    let body = UnsafeBufferPointer(start: start + 1, count: count - 1)
    if selector & 1 == 0 {
        checkBinary(type, body)
    } else {
        checkJSON(type, body)
    }
    return 0
}

private func checkBinary(_ type: any ProtobufMessage.Type, _ body: UnsafeBufferPointer<UInt8>) {
    guard let message = try? type.init(serializedBytes: body, options: DecodingOptions()) else { return }
    let encoded = message.serializedBytes()
    guard let again = try? type.init(serializedBytes: encoded, options: DecodingOptions()) else {
        trap("\(type.protoMessageName): re-decoding our own encoding failed")
    }
    let reencoded = again.serializedBytes()
    if reencoded != encoded {
        trap("\(type.protoMessageName): encoding is not stable across a round trip")
    }
    _ = try? message.jsonUTF8Bytes(options: JSONEncodingOptions())
}

private func checkJSON(_ type: any ProtobufMessage.Type, _ body: UnsafeBufferPointer<UInt8>) {
    guard let message = try? type.init(jsonUTF8Bytes: body, options: JSONDecodingOptions()) else { return }
    guard let printed = try? message.jsonUTF8Bytes(options: JSONEncodingOptions()) else { return }
    guard let back = try? type.init(jsonUTF8Bytes: printed, options: JSONDecodingOptions()) else {
        trap("\(type.protoMessageName): our own JSON did not parse: \(String(decoding: printed, as: UTF8.self))")
    }
    if back.serializedBytes() != message.serializedBytes() {
        trap("\(type.protoMessageName): JSON round trip changed the message")
    }
}

private func trap(_ finding: String) -> Never {
    print("FINDING: " + finding)
    preconditionFailure(finding)
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzDecode_main")
public func fuzzDecodeMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzzDecode($0, $1) }
}
