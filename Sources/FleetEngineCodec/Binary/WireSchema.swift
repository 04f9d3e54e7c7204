/// What the wire scanner needs to know of a message type: its fields' numbers, names and kinds.
///
/// Generated for every message (`wireSchema`); the scanner uses it to check a message the way
/// Google's parsers do, and to say which field a fault is in.
struct WireSchema: Sendable {
    enum Kind: Sendable {
        case varint
        case fixed32
        case fixed64
        case string
        case bytes
        case message(@Sendable () -> WireSchema)

        /// The wire type a field of this kind is sent with (unpacked).
        var wireType: WireType {
            switch self {
            case .varint: .varint
            case .fixed32: .fixed32
            case .fixed64: .fixed64
            case .string, .bytes, .message: .lengthDelimited
            }
        }

        /// Whether this is a `string` field's kind.
        var isString: Bool {
            if case .string = self { true } else { false }
        }

        /// Whether this is a `bytes` field's kind.
        var isBytes: Bool {
            if case .bytes = self { true } else { false }
        }

        /// Scalar numeric kinds may also arrive packed, as one length-delimited field.
        var isPackable: Bool {
            switch self {
            case .varint, .fixed32, .fixed64: true
            case .string, .bytes, .message: false
            }
        }
    }

    struct Field: Sendable {
        var number: Int
        var name: String
        var kind: Kind
        var isRepeated: Bool

        /// Whether decoding reads this field from a value of `wireType`: its kind's own, or a
        /// packed run for a repeated scalar. Google's parsers keep any other as an unknown field.
        func accepts(_ wireType: WireType) -> Bool {
            wireType == kind.wireType || (isRepeated && kind.isPackable && wireType == .lengthDelimited)
        }
    }

    var messageName: String
    var fields: [Field]
    /// A map field's entry type: Google's parsers keep an entry holding anything but its key and
    /// value (each once or more, with their own wire types) as an unknown field, whole.
    var isMapEntry = false

    func field(number: Int) -> Field? {
        fields.first { $0.number == number }
    }
}

/// The six wire types of protobuf's encoding (3 and 4 are groups).
enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}
