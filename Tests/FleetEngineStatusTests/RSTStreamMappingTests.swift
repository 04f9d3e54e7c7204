import FleetEngineStatus
import Testing

@Suite("StatusCode from RST_STREAM")
struct RSTStreamMappingTests {
    /// gRPC's doc/PROTOCOL-HTTP2.md, "Errors", for every HTTP/2 error code RFC 9113 defines.
    static let table: [(HTTP2ErrorCode, StatusCode)] = [
        (.noError, .internalError),
        (.protocolError, .internalError),
        (.internalError, .internalError),
        (.flowControlError, .internalError),
        (.settingsTimeout, .internalError),
        (.streamClosed, .internalError),
        (.frameSizeError, .internalError),
        (.refusedStream, .unavailable),
        (.cancel, .cancelled),
        (.compressionError, .internalError),
        (.connectError, .internalError),
        (.enhanceYourCalm, .resourceExhausted),
        (.inadequateSecurity, .permissionDenied),
        (.http11Required, .internalError),
    ]

    @Test(arguments: table)
    func resetStreamMapsToItsStatus(errorCode: HTTP2ErrorCode, expected: StatusCode) {
        #expect(StatusCode(rstStreamErrorCode: errorCode) == expected)
    }

    @Test func tableCoversAllFourteenDefinedCodes() {
        #expect(Self.table.map(\.0.rawValue) == Array(0...13))
    }

    @Test(arguments: [UInt32(0xE), 0x1F, 0xFFFF_FFFF])
    func undefinedErrorCodeIsInternal(value: UInt32) {
        #expect(StatusCode(rstStreamErrorCode: HTTP2ErrorCode(rawValue: value)) == .internalError)
    }

    @Test(arguments: table)
    func callStatusOfAResetStreamSaysWhichCode(errorCode: HTTP2ErrorCode, expected: StatusCode) {
        let status = CallStatus(rstStreamErrorCode: errorCode)
        #expect(status.code == expected)
        #expect(status.message == "the server reset the stream with \(errorCode.name ?? "")")
        #expect(status.origin == .streamReset(errorCode))
        #expect(status.details.isEmpty)
        #expect(status.error?.code == expected)
    }

    @Test func onlyARefusedStreamIsKnownNotToHaveBeenProcessed() throws {
        for (errorCode, _) in Self.table {
            let error = try #require(CallStatus(rstStreamErrorCode: errorCode).error)
            #expect(error.requestWasProcessed == (errorCode != .refusedStream), "\(errorCode)")
        }
    }

    @Test func unknownErrorCodeIsNamedInHexInTheMessage() {
        let status = CallStatus(rstStreamErrorCode: HTTP2ErrorCode(rawValue: 0x1F))
        #expect(status.message == "the server reset the stream with 0x1f")
        #expect(status.code == .internalError)
    }
}
