import CaptureFuzzing
import FleetEngineStatus
import FleetEngineWire
import WireFuzzing

/// One libFuzzer run: the input is a script (``WireFuzzScript``) of what arrives on a call's
/// stream, played into the ``GRPCResponseReader`` the client and the capture decoder use, with its
/// DATA as scripted, coalesced and byte by byte (the results must agree), then the end of the
/// connection if the call has not ended.
///
/// Checks: the response head comes at most once, first; exactly one end, last, with the reader's
/// status; no message over the limit (decompression stays within it); the buffer stays within
/// four times the DATA given; a status the reader made up says what happened; the status survives
/// being written as trailers (`trailerValues`) and read back: code, message and details.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (script, events, reader) = WireFuzzPlay<GRPCResponseReader>.run(data, size, vocabulary: .response)
    for (index, event) in events.enumerated() {
        switch event {
        case .responseHead:
            if index != 0 { fail("a response head came as event \(index)") }
        case .message(let payload):
            if payload.count > script.maxMessageSize {
                fail("a message of \(payload.count) bytes passed the limit of \(script.maxMessageSize)")
            }
        case .end(let status, let trailers):
            if index != events.count - 1 { fail("the end came as event \(index) of \(events.count)") }
            if status != reader.status || trailers != reader.trailers { fail("the end is not the reader's status") }
        }
    }
    guard let status = reader.status else { fail("the call did not end") }
    // A server may send a status without a message; one the reader made up must say what happened.
    if !status.isOK, status.origin != .status, status.message.isEmpty {
        fail("\(status.code) from \(status.origin) with an empty message")
    }
    checkRoundTrip(status)
    if let error = status.error {
        _ = (error.description, error.family, error.isRetryable, error.retryDelay, error.requestWasProcessed)
    }
    _ = (reader.retryPushback, reader.trailers?.retryPushbackForbidsRetry, reader.shouldResetStream)
    _ = try? reader.trailers?.binaryValues(named: "x-trip-bin")
    return 0
}

/// Fails unless `status`, written as trailers and read back, has the same code, message and details.
func checkRoundTrip(_ status: CallStatus) {
    let trailers = status.trailerValues
    let again = CallStatus(
        grpcStatus: trailers.grpcStatus, grpcMessage: trailers.grpcMessage,
        grpcStatusDetailsBin: trailers.grpcStatusDetailsBin)
    guard again.code == status.code, again.message == status.message, again.details == status.details,
        again.statusDetailsProblem == nil
    else {
        fail("\(status) \(status.details) came back from its trailers \(trailers) as \(again) \(again.details)")
    }
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzGRPCResponse_main")
public func fuzzGRPCResponseMain(_ count: CInt, _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
    -> CInt
{
    LibFuzzerEntry.run(count, arguments) { fuzz($0, $1) }
}
