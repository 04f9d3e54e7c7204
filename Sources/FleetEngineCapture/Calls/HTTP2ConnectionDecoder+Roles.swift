extension HTTP2ConnectionDecoder {
    /// Which side sent a header block, as its pseudo-header fields say (RFC 9113 section 8.3):
    /// true for a request's (`:method`, `:path`), false for a response's (`:status`), nil for a
    /// block that has neither (trailers), which either side may send.
    static func sentByClient(_ fields: [(name: String, value: String)]) -> Bool? {
        for field in fields {
            // Pseudo-header fields come first (RFC 9113 section 8.3): the first regular one ends them.
            guard field.name.hasPrefix(":") else { return nil }
            switch field.name {
            case ":method", ":path": return true
            case ":status": return false
            default: continue
            }
        }
        return nil
    }
}

extension HTTP2ConnectionDecoder.Call {
    /// Swaps what was read from the client for what was read from the server: before the sides
    /// were known, only messages read without their header blocks can have been read.
    mutating func swapSides() {
        swap(&rawRequest, &rawResponse)
        swap(&requestMessages, &responseMessages)
        swap(&requestType, &responseType)
    }
}
