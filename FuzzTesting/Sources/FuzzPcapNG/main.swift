import CLibFuzzer
import CaptureFuzzing

/// A pcapng file up to where its packets begin (draft-ietf-opsawg-pcapng sections 4.1 and 4.2),
/// little-endian: a Section Header Block and three Interface Description Blocks, so that the
/// fuzzer's input is read as the blocks that follow and its time goes into Enhanced and Simple
/// Packet Blocks, options, and further sections rather than into finding the magic numbers.
///
/// - interface 0: ETHERNET, no snap length, microseconds (as `tcpdump -i lo` writes);
/// - interface 1: NULL (BSD loopback), snap length 96, nanoseconds (if_tsresol 9);
/// - interface 2: RAW, 2^-20 second units (if_tsresol 0x94) and if_tsoffset 1,000,000,000 s.
let pcapNGPrefix: [UInt8] = {
    var bytes: [UInt8] = []
    func littleEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }
    }
    func block(type: UInt64, body: [UInt8]) {
        let length = UInt64(12 + body.count)
        bytes += littleEndian(type, 4) + littleEndian(length, 4) + body + littleEndian(length, 4)
    }
    // Section Header Block: byte-order magic, version 1.0, section length unknown (-1).
    block(
        type: 0x0A0D_0D0A,
        body: littleEndian(0x1A2B_3C4D, 4) + littleEndian(1, 2) + littleEndian(0, 2)
            + littleEndian(UInt64.max, 8))
    // Interface Description Blocks: link type, reserved, snap length, options.
    block(type: 1, body: littleEndian(1, 2) + littleEndian(0, 2) + littleEndian(0, 4))
    block(
        type: 1,
        body: littleEndian(0, 2) + littleEndian(0, 2) + littleEndian(96, 4)
            + littleEndian(9, 2) + littleEndian(1, 2) + [9, 0, 0, 0]  // if_tsresol: 10^-9
            + littleEndian(0, 4))  // opt_endofopt
    block(
        type: 1,
        body: littleEndian(101, 2) + littleEndian(0, 2) + littleEndian(0, 4)
            + littleEndian(9, 2) + littleEndian(1, 2) + [0x94, 0, 0, 0]  // if_tsresol: 2^-20
            + littleEndian(14, 2) + littleEndian(8, 2) + littleEndian(1_000_000_000, 8)  // if_tsoffset
            + littleEndian(0, 4))  // opt_endofopt
    return bytes
}()

/// One libFuzzer run: ``pcapNGPrefix`` followed by the input, checked as ``CaptureFileCheck``
/// checks any capture file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var capture = pcapNGPrefix
    capture.append(contentsOf: UnsafeBufferPointer(start: data, count: size))
    capture.withUnsafeBufferPointer { CaptureFileCheck.run($0) }
    return 0
}

/// The program's entry: SwiftPM links `main` to this symbol; it hands control to libFuzzer.
@_cdecl("FuzzPcapNG_main")
public func fuzzPcapNGMain(
    _ argumentCount: CInt,
    _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var argumentCount = argumentCount
    var arguments = arguments
    return LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzz($0, $1) }
}
