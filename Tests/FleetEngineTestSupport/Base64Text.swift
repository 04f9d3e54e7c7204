import Foundation

/// Standard base64, as Foundation writes it, optionally without the padding.
package func base64(_ bytes: [UInt8], padded: Bool = true) -> String {
    let text = Data(bytes).base64EncodedString()
    return padded ? text : String(text.prefix { $0 != "=" })
}

/// Base64 text padded to a multiple of four, for Foundation's decoder, which requires it.
package func padded(_ text: String) -> String {
    text + String(repeating: "=", count: (4 - text.count % 4) % 4)
}
