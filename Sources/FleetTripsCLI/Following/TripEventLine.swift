import FleetEngineCodec
import FleetEngineStatus
import TripTracking

/// One event of a followed trip as `fleettrips follow` prints it: a JSON object on one line, or a
/// line of text for people (`--human`).
///
/// Every JSON line has `"trip"` (the trip's name) and `"event"` (``TripEvent/name``), then the
/// event's value under its own name: `"tripStatus"` (the enum's name, or its number when the schema
/// names none), `"remainingDistanceMeters"` (a number), `"activeRoute"` (an array of LatLng),
/// `"vehicleLocation"`, `"pickupLocation"`, `"dropoffLocation"`, `"activeRouteTraffic"` (proto3 JSON
/// of the message), `"pickupETA"` and `"dropoffETA"` (RFC 3339 text), `"remainingWaypoints"` and
/// `"intermediateDestinations"` (arrays), `"error"` (the error as `fleettrips status --json` prints
/// it, with `"code"` and `"name"`), each `null` when the part is gone. "Trip updated" carries
/// `"fields"` (the changed fields' names) and `"message"` (the whole trip as proto3 JSON).
struct TripEventLine {
    var trip: String
    var event: TripEvent

    /// The JSON line, line feed included.
    func json() throws -> [UInt8] {
        var object = JSONObjectWriter()
        object.member("trip", .string(trip))
        object.member("event", .string(event.name))
        switch event {
        case .tripUpdated(let trip, let fields):
            object.member("fields", .jsonArray(fields.names.map(JSONWriter.quoted)))
            object.member("message", .json(try Self.text(trip)))
        case .tripStatus(let status):
            // A value the schema does not name is its number, as proto3 JSON writes an enum.
            object.member("tripStatus", status.protoName.map { .string($0) } ?? .integer(Int(status.rawValue)))
        case .remainingDistance(let meters):
            object.member("remainingDistanceMeters", meters.map { .integer(Int($0)) } ?? .null)
        case .activeRoute(let route):
            object.member("activeRoute", try Self.array(route))
        case .vehicleLocation(let location):
            object.member("vehicleLocation", try Self.value(location))
        case .pickupLocation(let location):
            object.member("pickupLocation", try Self.value(location))
        case .dropoffLocation(let location):
            object.member("dropoffLocation", try Self.value(location))
        case .pickupETA(let eta):
            object.member("pickupETA", try Self.value(eta))
        case .dropoffETA(let eta):
            object.member("dropoffETA", try Self.value(eta))
        case .remainingWaypoints(let waypoints):
            object.member("remainingWaypoints", try Self.array(waypoints))
        case .intermediateDestinations(let destinations):
            object.member("intermediateDestinations", try Self.array(destinations))
        case .activeRouteTraffic(let traffic):
            object.member("activeRouteTraffic", try Self.value(traffic))
        case .updateFailed(let error):
            object.member("error", .json(StatusExplanation(error: error).json))
        }
        return Array((object.result + "\n").utf8)
    }

    /// A line for people: the trip id, the event and its value in short.
    func human() -> [UInt8] {
        let tripID = TripName.lastSegment(of: trip)
        let what: String
        switch event {
        case .tripUpdated(_, let fields): what = "updated \(fields.names.joined(separator: ", "))"
        case .tripStatus(let status): what = "status \(status.protoName ?? String(status.rawValue))"
        case .remainingDistance(let meters): what = "remaining distance " + (meters.map { "\($0) m" } ?? "unknown")
        case .activeRoute(let route): what = "active route of " + Self.counted(route?.count ?? 0, "point", "points")
        case .vehicleLocation(let location):
            what = "vehicle at " + (location?.location.map(Self.describe) ?? "unknown")
        case .pickupLocation(let location): what = "pickup at " + (location?.point.map(Self.describe) ?? "none")
        case .dropoffLocation(let location): what = "dropoff at " + (location?.point.map(Self.describe) ?? "none")
        case .pickupETA(let eta): what = "pickup ETA " + (eta.map(Self.describe) ?? "none")
        case .dropoffETA(let eta): what = "dropoff ETA " + (eta.map(Self.describe) ?? "none")
        case .remainingWaypoints(let waypoints):
            what = Self.counted(waypoints?.count ?? 0, "waypoint", "waypoints") + " remaining"
        case .intermediateDestinations(let destinations):
            what = Self.counted(destinations?.count ?? 0, "intermediate destination", "intermediate destinations")
        case .activeRouteTraffic(let traffic): what = "traffic on the active route: " + Self.describe(traffic)
        case .updateFailed(let error): what = "refresh failed: \(error)"
        }
        return Array("\(tripID)  \(what)\n".utf8)
    }

    private static func text(_ message: some ProtobufMessage) throws -> String {
        String(decoding: try message.jsonUTF8Bytes(), as: UTF8.self)
    }

    private static func value(_ message: (some ProtobufMessage)?) throws -> JSONObjectWriter.Value {
        guard let message else { return .null }
        return .json(try text(message))
    }

    private static func array(_ messages: [some ProtobufMessage]?) throws -> JSONObjectWriter.Value {
        guard let messages else { return .null }
        return .jsonArray(try messages.map { try text($0) })
    }

    /// `1 point`, `2 points`, `0 points`.
    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// The slow and jammed stretches the traffic lists (normal-speed ones are no news).
    private static func describe(_ traffic: ConsumableTrafficPolyline?) -> String {
        guard let traffic else { return "unknown" }
        let speeds = traffic.speedReadingInterval.map(\.speed)
        let slow = speeds.filter { $0 == .slow }.count
        let jams = speeds.filter { $0 == .trafficJam }.count
        guard slow + jams > 0 else { return "no slow stretches or jams" }
        return [
            slow > 0 ? counted(slow, "slow stretch", "slow stretches") : nil,
            jams > 0 ? counted(jams, "jam", "jams") : nil,
        ].compactMap { $0 }.joined(separator: ", ")
    }

    private static func describe(_ point: LatLng) -> String {
        "\((point.latitude * 1e5).rounded() / 1e5), \((point.longitude * 1e5).rounded() / 1e5)"
    }

    private static func describe(_ stamp: Timestamp) -> String {
        (try? text(stamp)).map { String($0.dropFirst().dropLast()) } ?? "\(stamp.seconds) s"
    }
}
