/// The field names and values a wire fuzzer's script picks from by number, so that a single byte
/// reaches the fields gRPC gives a meaning and the values that pass their checks.
public struct WireFuzzVocabulary: Sendable {
    /// Field names, picked by a name byte below 0x80.
    public var names: [String]
    /// Field values, picked by a value byte below 0x40.
    public var values: [String]

    /// Values that either side can use.
    static let sharedValues = [
        "application/grpc", "application/grpc+proto", "APPLICATION/GRPC;charset=utf-8", "gzip", "deflate",
        "identity", "snappy", "gzip,deflate", " gzip , identity ,", "", "trailers", "0", "14",
    ]

    /// A response's header blocks: headers, trailers, Trailers-Only.
    public static let response = WireFuzzVocabulary(
        names: [
            ":status", "content-type", "grpc-status", "grpc-message", "grpc-status-details-bin", "grpc-encoding",
            "grpc-accept-encoding", "grpc-retry-pushback-ms", "date", "x-trip-bin", ":path", "connection", "te",
            "X-Upper",
        ],
        values: sharedValues + [
            "200", "100", "503", "404", "2000", "abc", "3", "16", "2147483648", " 5 ", "%E2%9C%93 trip %25 done",
            "%zz%4", "1500", "-1", "AAEC", "AAE=",
        ])

    /// A request's header block.
    public static let request = WireFuzzVocabulary(
        names: [
            ":method", ":scheme", ":path", ":authority", "content-type", "te", "grpc-timeout", "grpc-encoding",
            "grpc-accept-encoding", "user-agent", "authorization", "x-goog-request-params", "x-trip-bin", ":status",
            "Upper-Case",
        ],
        values: sharedValues + [
            "POST", "GET", "https", "http", "/maps.fleetengine.v1.TripService/GetTrip", "/a/b/c", "/a", "a/b",
            "fleetengine.googleapis.com", "1S", "250m", "99999999H", "0n", "100000000S", "1s", "Bearer abc",
            "grpc-swift/2",
        ])
}
