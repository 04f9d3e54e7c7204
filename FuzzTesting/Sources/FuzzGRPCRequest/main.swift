import CaptureFuzzing
import FleetEngineWire
import WireFuzzing

/// The codes a request reader fails with (``GRPCRequestReader/Event/failed(_:)``): the header
/// block's, the framing's and decompression's, and a stream that stops early.
let documentedCodes: [WireError.Code] = [
    .missingHeader, .invalidHeader, .invalidMethodPath, .unexpectedFrame, .incompleteStream, .messageTooLarge,
    .truncatedMessage, .invalidCompressedFlag, .compressedWithoutEncoding, .unsupportedEncoding,
    .invalidCompressedData,
]

/// The codes of faults found in a message, whose error must say at which byte of the stream the
/// message starts.
let messageCodes: [WireError.Code] = [
    .messageTooLarge, .truncatedMessage, .invalidCompressedFlag, .compressedWithoutEncoding, .unsupportedEncoding,
    .invalidCompressedData,
]

/// One libFuzzer run: the input is a script (``WireFuzzScript``) of what arrives on a call's
/// stream from the client, played into ``GRPCRequestReader`` (``GRPCRequestHead`` parsing, the
/// deframer, decompression) with its DATA as scripted, coalesced and byte by byte (the results
/// must agree), then the end of the connection if the request has not ended.
///
/// Checks: the head comes at most once, first; exactly one ending event, last; no message over the
/// limit; the buffer stays within four times the DATA given; a failure has a documented code, a
/// message, and for a fault in a message the byte offset; a head read back from its own header
/// fields is the same head, and its timeout survives a trip through `Duration`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (script, events, reader) = WireFuzzPlay<GRPCRequestReader>.run(data, size, vocabulary: .request)
    for (index, event) in events.enumerated() {
        switch event {
        case .requestHead(let head):
            if index != 0 { fail("a request head came as event \(index)") }
            checkRoundTrip(head)
        case .message(let payload):
            if payload.count > script.maxMessageSize {
                fail("a message of \(payload.count) bytes passed the limit of \(script.maxMessageSize)")
            }
        case .end, .reset:
            if index != events.count - 1 { fail("\(event) came as event \(index) of \(events.count)") }
        case .failed(let error):
            if index != events.count - 1 { fail("\(event) came as event \(index) of \(events.count)") }
            if !documentedCodes.contains(error.code) { fail("an undocumented \(error.code): \(error)") }
            if error.message.isEmpty { fail("\(error.code) with an empty message") }
            if messageCodes.contains(error.code), error.byteOffset == nil { fail("no byte offset in \(error)") }
        }
    }
    if !reader.isFinished { fail("the request did not end") }
    return 0
}

/// Fails unless the head, written as header fields and read back, is the same head.
func checkRoundTrip(_ head: GRPCRequestHead) {
    do throws(WireError) {
        let again = try GRPCRequestHead(headerFields: head.headerFields)
        if again != head { fail("\(head) came back from \(head.headerFields) as \(again)") }
    } catch {
        fail("\(head) could not be read back from \(head.headerFields): \(error)")
    }
    if let timeout = head.timeout, GRPCTimeout(timeout.duration).duration != timeout.duration {
        fail("the timeout \(timeout) comes back from \(timeout.duration) as \(GRPCTimeout(timeout.duration))")
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzGRPCRequest_main")
public func fuzzGRPCRequestMain(_ count: CInt, _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt
{
    LibFuzzerEntry.run(count, arguments) { fuzz($0, $1) }
}
