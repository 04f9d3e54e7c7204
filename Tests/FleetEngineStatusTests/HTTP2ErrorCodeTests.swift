import FleetEngineStatus
import Testing

@Suite("HTTP2ErrorCode")
struct HTTP2ErrorCodeTests {
    /// RFC 9113 section 7, every defined code.
    static let table: [(HTTP2ErrorCode, UInt32, String)] = [
        (.noError, 0x0, "NO_ERROR"),
        (.protocolError, 0x1, "PROTOCOL_ERROR"),
        (.internalError, 0x2, "INTERNAL_ERROR"),
        (.flowControlError, 0x3, "FLOW_CONTROL_ERROR"),
        (.settingsTimeout, 0x4, "SETTINGS_TIMEOUT"),
        (.streamClosed, 0x5, "STREAM_CLOSED"),
        (.frameSizeError, 0x6, "FRAME_SIZE_ERROR"),
        (.refusedStream, 0x7, "REFUSED_STREAM"),
        (.cancel, 0x8, "CANCEL"),
        (.compressionError, 0x9, "COMPRESSION_ERROR"),
        (.connectError, 0xA, "CONNECT_ERROR"),
        (.enhanceYourCalm, 0xB, "ENHANCE_YOUR_CALM"),
        (.inadequateSecurity, 0xC, "INADEQUATE_SECURITY"),
        (.http11Required, 0xD, "HTTP_1_1_REQUIRED"),
    ]

    @Test(arguments: table)
    func definedCodeHasItsValueAndName(code: HTTP2ErrorCode, value: UInt32, name: String) {
        #expect(code.rawValue == value)
        #expect(HTTP2ErrorCode(rawValue: value) == code)
        #expect(code.name == name)
        #expect(code.description == name)
        #expect(HTTP2ErrorCode(name: name) == code)
        #expect(HTTP2ErrorCode(name: name.lowercased()) == code)
    }

    @Test(arguments: [
        (UInt32(0xE), "0xe"), (0x1F, "0x1f"), (0xFF, "0xff"), (0xDEAD_BEEF, "0xdeadbeef"), (UInt32.max, "0xffffffff"),
    ])
    func undefinedCodeSurvivesAndPrintsInHex(value: UInt32, description: String) {
        let code = HTTP2ErrorCode(rawValue: value)
        #expect(code.rawValue == value)
        #expect(code.name == nil)
        #expect(code.description == description)
    }

    @Test(arguments: ["", "REFUSED", "HTTP_1_1", "0x7", "7", "NO-ERROR"])
    func unknownNameGivesNil(name: String) {
        #expect(HTTP2ErrorCode(name: name) == nil)
    }
}
