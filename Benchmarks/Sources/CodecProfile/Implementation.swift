/// Whose code does it.
enum Implementation: String, CaseIterable {
    case ours
    case oursString = "ours-string"
    case swiftProtobuf = "swift-protobuf"
    case protobufC = "protobuf-c"
    case protobufCArena = "protobuf-c-arena"

    /// The implementations that can run an operation, ours first; for `json`, `ours` prints
    /// `jsonUTF8Bytes()` and `ours-string` prints `jsonString()`, and swift-protobuf `jsonString()`.
    static func running(_ operation: Operation) -> [Implementation] {
        switch operation {
        case .decode: [.ours, .swiftProtobuf, .protobufC, .protobufCArena]
        case .encode: [.ours, .swiftProtobuf, .protobufC]
        case .json: [.ours, .oursString, .swiftProtobuf]
        }
    }
}
