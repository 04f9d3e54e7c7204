/// One operation whose mallocs the gate holds to a committed threshold. Its raw value names the
/// threshold file (`Benchmarks/Thresholds/<Swift version>/<name>.json`) and the operation in every
/// message.
enum GatedOperation: String, CaseIterable, Sendable {
    case decodeTypicalTrip = "decode-typical-trip"
    case decodeLargeTrip = "decode-large-trip"
    case encodeTypicalTrip = "encode-typical-trip"
    case encodeLargeTrip = "encode-large-trip"
    case jsonTypicalTrip = "json-typical-trip"
    case jsonLargeTrip = "json-large-trip"
    case clientGetTrip = "client-get-trip"
    case followedTripRefresh = "followed-trip-refresh"
    case captureMessage = "capture-message"

    /// What one operation is, for the report.
    var summary: String {
        switch self {
        case .decodeTypicalTrip: "Trip(serializedBytes:) of the typical trip (4,476 B), value destroyed"
        case .decodeLargeTrip: "Trip(serializedBytes:) of the large trip (84,279 B), value destroyed"
        case .encodeTypicalTrip: "serializedBytes() of the typical trip"
        case .encodeLargeTrip: "serializedBytes() of the large trip"
        case .jsonTypicalTrip: "jsonUTF8Bytes() of the typical trip"
        case .jsonLargeTrip: "jsonUTF8Bytes() of the large trip"
        case .clientGetTrip:
            "one GetTrip of the typical trip by FleetEngineClient, 1 in flight, emulator in another process"
        case .followedTripRefresh: "one TripModel.refresh() of a followed trip whose vehicle moved, events delivered"
        case .captureMessage: "one message of grpcio-tripservice.pcap decoded and printed as a JSON line"
        }
    }

    /// Whether the operation calls over loopback, where a count may move by a fraction from run to
    /// run (a timer, a window update landing inside or outside the measured calls).
    var isNetworked: Bool {
        switch self {
        case .clientGetTrip, .followedTripRefresh: true
        default: false
        }
    }

    /// Unmeasured runs first, then measured ones: enough that the per-operation figure does not
    /// move between runs, few enough that the whole gate takes seconds.
    var warmupAndIterations: (warmup: Int, iterations: Int) {
        switch self {
        case .decodeTypicalTrip, .encodeTypicalTrip, .jsonTypicalTrip: (100, 1_000)
        case .decodeLargeTrip, .encodeLargeTrip, .jsonLargeTrip: (10, 100)
        case .clientGetTrip: (200, 2_000)
        case .followedTripRefresh: (200, 2_000)
        case .captureMessage: (10, 100)
        }
    }
}
