/// `payload` as one gRPC length-prefixed message (gRPC PROTOCOL-HTTP2, "Length-Prefixed-Message"):
/// the compressed flag, the length as 4 bytes big-endian, the payload.
///
/// Framed by hand, independent of the Wire layer's framer, so that tests of the framer, the
/// deframer, the client and the CLI do not check our code against itself. `flag` is sent as it
/// is: 1 says the payload is compressed, anything above 1 is a flag no gRPC peer sends.
public func grpcFramed(_ payload: [UInt8], flag: UInt8 = 0) -> [UInt8] {
    let length = UInt32(payload.count)
    return [flag, UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
        + payload
}
