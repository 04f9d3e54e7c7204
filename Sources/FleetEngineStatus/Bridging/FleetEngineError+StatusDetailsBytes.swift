import FleetEngineCodec

extension FleetEngineError {
    /// The trailer key of the serialized `google.rpc.Status` (gRPC's convention, used by every Google API).
    public static let statusDetailsKey = "grpc-status-details-bin"

    /// Takes the details from the bytes of a bridged error's `grpc-status-details-bin` (already
    /// decoded from base64 by the library that bridged it); bytes that do not decode are kept, as
    /// unpadded base64, in ``statusDetailsProblem``.
    package mutating func readStatusDetails(_ bytes: [UInt8]) {
        do throws(CodecError) {
            let status = try RPCStatus(serializedBytes: bytes)
            rpcStatus = status
            details = status.details.map(StatusDetail.init)
        } catch {
            var text: [UInt8] = []
            Base64.encode(bytes, into: &text, padded: false)
            statusDetailsProblem = StatusDetailsProblem(rawValue: String(decoding: text, as: UTF8.self), reason: error)
        }
    }
}
