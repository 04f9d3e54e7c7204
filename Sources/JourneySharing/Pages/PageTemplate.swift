import FleetEngineCodec

/// Fills a page template's placeholders: `{{BASE}}` (the path the pages are mounted at, ending in
/// `/`), `{{TITLE}}`, and `{{CONFIG}}` (a JSON object inside a `<script type="application/json">`).
enum PageTemplate {
    static func fill(_ template: String, base: String, title: String, config: [UInt8]) -> String {
        template.replacing("{{BASE}}", with: escapeHTML(base)).replacing("{{TITLE}}", with: escapeHTML(title))
            .replacing("{{CONFIG}}", with: scriptSafeJSON(config))
    }

    /// Text safe in HTML content and in quoted attribute values.
    static func escapeHTML(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// JSON text that cannot end its `<script>` element: `<` only appears inside JSON strings,
    /// where `\u003c` means the same.
    static func scriptSafeJSON(_ json: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count)
        for byte in json {
            if byte == UInt8(ascii: "<") {
                bytes.append(contentsOf: "\\u003c".utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON object of string (or null) members, in order.
    static func config(_ members: KeyValuePairs<String, String?>) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        for (key, value) in members {
            writer.name(key)
            if let value { writer.string(value) } else { writer.null() }
        }
        writer.endObject()
        return writer.takeBytes()
    }
}
