import FleetEngineCodec

/// Writes one JSON object as UTF-8 bytes, member by member, into a buffer that whole lines
/// accumulate in (RFC 8259).
struct JSONLineWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    init(reservingCapacity capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    /// A writer that appends to `bytes`.
    init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Hands the buffer back, leaving the writer empty.
    mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
        markValue()
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma.removeLast()
        markValue()
    }

    /// Ends a line (after the outermost object).
    mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Starts a member: its quoted name and the colon; the value comes next.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: Array("\\u00".utf8))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
        markValue()
    }

    mutating func integer<Value: BinaryInteger>(_ value: Value) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        markValue()
    }

    mutating func boolean(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        markValue()
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        markValue()
    }

    /// A message's proto3 JSON, written in place; false (and nothing written) when it has none
    /// (a `google.protobuf.Any` of a type the codec does not know).
    mutating func message(_ message: any ProtobufMessage) -> Bool {
        separate()
        do throws(CodecError) {
            try message.appendJSONUTF8Bytes(to: &bytes)
        } catch {
            return false
        }
        markValue()
        return true
    }

    /// A value that is already JSON text.
    mutating func raw(_ json: [UInt8]) {
        separate()
        bytes.append(contentsOf: json)
        markValue()
    }

    /// Empties the buffer, keeping its capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func markValue() {
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
    }
}
