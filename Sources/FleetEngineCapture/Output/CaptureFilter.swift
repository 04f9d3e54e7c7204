import FleetEngineStatus

/// Keeps the records of the calls a user asked for: by method, by trip name, by final status.
///
/// A call is kept whole or not at all: its messages are held until the call ends when the filter
/// depends on the status, so memory grows with the calls that are open and match so far. Problems
/// are always kept: they say what the decoder could not read.
public struct CaptureFilter: Sendable {
    /// A `:path`, or a method name that the path ends with (`GetTrip`).
    public var method: String?
    /// A trip name (`providers/p/trips/t`) or trip id that one of the call's messages carries:
    /// a string field, at any depth, equal to the name, or for an id equal to the id or to a name
    /// with that id (`trip-1` matches `providers/p/trips/trip-1` and a waypoint's `trip_id`
    /// `trip-1`, not `trip-10`).
    public var trip: String?
    /// Status names (`NOT_FOUND`) or numbers the call must have ended with.
    public var statuses: Set<String>

    private struct CallKey: Hashable, Sendable {
        var connection: Int
        var stream: UInt32
    }

    private var held: [CallKey: [CaptureRecord]] = [:]
    private var tripMatched: Set<CallKey> = []

    public init(method: String? = nil, trip: String? = nil, statuses: Set<String> = []) {
        self.method = method
        self.trip = trip
        self.statuses = statuses
    }

    /// Whether the filter keeps everything.
    public var isEmpty: Bool { method == nil && trip == nil && statuses.isEmpty }

    /// The records to print now, of those given so far.
    public mutating func filter(_ records: [CaptureRecord]) -> [CaptureRecord] {
        guard !isEmpty else { return records }
        let tripPattern = trip.map(TripPattern.init)
        var kept: [CaptureRecord] = []
        for record in records {
            switch record {
            case .problem:
                kept.append(record)
            case .message(let message):
                guard methodMatches(message.method) else { continue }
                let key = CallKey(connection: message.connection.id, stream: message.streamID)
                if let tripPattern, tripPattern.isCarried(in: message.payload[...]) { tripMatched.insert(key) }
                if statuses.isEmpty, trip == nil || tripMatched.contains(key), held[key] == nil {
                    kept.append(record)
                } else {
                    held[key, default: []].append(record)
                }
            case .callEnd(let end):
                let key = CallKey(connection: end.connection.id, stream: end.streamID)
                let messages = held.removeValue(forKey: key) ?? []
                let matchedTrip = tripMatched.remove(key) != nil
                guard methodMatches(end.method), trip == nil || matchedTrip else { continue }
                if !statuses.isEmpty {
                    let name = end.status.code.name ?? ""
                    guard statuses.contains(name) || statuses.contains(String(end.status.code.rawValue)) else {
                        continue
                    }
                }
                kept += messages
                kept.append(record)
            }
        }
        return kept
    }

    /// What ``trip`` matches, worked out once per batch of records.
    struct TripPattern {
        /// How deep the search goes into nested messages.
        private static let maximumNesting = 16

        /// The name or id, as given.
        private let exact: [UInt8]
        /// For an id, `/trips/{id}`, which a name with that id ends with; nil for a name.
        private let nameSuffix: [UInt8]?
        private static let namePrefix = Array("providers/".utf8)

        init(_ trip: String) {
            exact = Array(trip.utf8)
            nameSuffix = exact.contains(UInt8(ascii: "/")) ? nil : Array("/trips/".utf8) + exact
        }

        /// Whether a length-delimited field of `payload` (a serialized message), or of a message
        /// nested in it, names the trip. Every length-delimited field is also read as a message
        /// (``WireField``), since without the schema a string and a nested message look alike;
        /// bytes that are not a well-formed message hold no fields to search.
        func isCarried(in payload: ArraySlice<UInt8>, depth: Int = 0) -> Bool {
            guard let fields = WireField.fields(of: payload) else { return false }
            for field in fields {
                guard case .lengthDelimited(let bytes) = field.value else { continue }
                if isNamed(by: bytes) { return true }
                if depth < Self.maximumNesting, isCarried(in: bytes, depth: depth + 1) { return true }
            }
            return false
        }

        /// Whether `field` is the trip: the name itself, or for an id, the id or a name ending in it.
        private func isNamed(by field: ArraySlice<UInt8>) -> Bool {
            if field.elementsEqual(exact) { return true }
            guard let nameSuffix, field.count > Self.namePrefix.count + nameSuffix.count,
                field.starts(with: Self.namePrefix), field.suffix(nameSuffix.count).elementsEqual(nameSuffix)
            else { return false }
            let provider = field.dropFirst(Self.namePrefix.count).dropLast(nameSuffix.count)
            return !provider.contains(UInt8(ascii: "/"))
        }
    }

    private func methodMatches(_ path: String?) -> Bool {
        guard let method else { return true }
        guard let path else { return false }
        return path == method || path.hasSuffix("/" + method)
    }
}
