import CLibFuzzer
import CaptureFuzzing

/// One libFuzzer run: the input is a capture file (pcap or pcapng), read whole, byte by byte and
/// in chunks, every packet decoded down to TCP, and the whole pipeline run (see
/// ``CaptureFileCheck``). Thrown `CaptureError`s are expected outcomes; a crash, a sanitizer report
/// or a `FINDING` is a failure.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CaptureFileCheck.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzCaptureFile_main")
public func fuzzCaptureFileMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzz($0, $1) }
}
