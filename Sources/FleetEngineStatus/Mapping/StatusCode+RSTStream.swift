extension StatusCode {
    /// The gRPC status of a call whose stream the server reset, from the RST_STREAM error code.
    ///
    /// gRPC's doc/PROTOCOL-HTTP2.md, section "Errors" ("HTTP2 Transport Mapping"):
    ///
    /// | RST_STREAM error code | gRPC code |
    /// | --- | --- |
    /// | REFUSED_STREAM | UNAVAILABLE (no processing happened; the call may be retried) |
    /// | CANCEL | CANCELLED (when sent by a server) |
    /// | ENHANCE_YOUR_CALM | RESOURCE_EXHAUSTED (the server may also send a debug payload) |
    /// | INADEQUATE_SECURITY | PERMISSION_DENIED |
    /// | NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR, SETTINGS_TIMEOUT, FRAME_SIZE_ERROR, COMPRESSION_ERROR, CONNECT_ERROR, and any other | INTERNAL |
    ///
    /// The document gives STREAM_CLOSED no mapping, since no open stream is left to report to; a
    /// reader that meets one anyway (a capture, say) gets INTERNAL, as for any other code.
    public init(rstStreamErrorCode: HTTP2ErrorCode) {
        switch rstStreamErrorCode {
        case .refusedStream: self = .unavailable
        case .cancel: self = .cancelled
        case .enhanceYourCalm: self = .resourceExhausted
        case .inadequateSecurity: self = .permissionDenied
        default: self = .internalError
        }
    }
}
