/// What both clients put in every GetTrip request besides the trip's name, so that the server
/// receives the same call from either.
enum RequestMetadata {
    /// The bearer token; the test server does not check it.
    static let token = "x"

    /// Fleet Engine's routing header for a trip name `providers/{provider}/trips/{trip}`, as
    /// FleetEngineClient writes it (the slash percent-encoded).
    static func routingHeader(tripName: String) -> String {
        let provider = tripName.split(separator: "/", omittingEmptySubsequences: false).dropFirst().first ?? ""
        return "provider_id=providers%2F" + provider
    }

    /// The `RequestHeader` fields FleetEngineClient fills in with its default configuration.
    static let languageCode = "en-US"
    static let sdkVersion = "swift-fleet-engine/0.1.0"
    #if os(Linux)
        static let osVersion = "Linux"
    #else
        static let osVersion = "macOS"
    #endif
}
