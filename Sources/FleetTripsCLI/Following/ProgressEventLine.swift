import FleetEngineCodec
import FleetEngineStatus
import TripTracking

/// One progress event as `fleettrips follow --progress` prints it, beside the trip events: a JSON
/// object on one line, or a line of text for people.
///
/// Every line has `"trip"` and `"event"` (``TripProgressEvent/name``: `arrivedAtWaypoint`,
/// `routeChanged`, `remainingTimeUpdated`, `remainingDistanceUpdated`, `delayCategoryChanged`,
/// `lightingModeChanged`, `speeding`, `locationUpdated`), then the value: `"waypoint"` (proto3 JSON
/// of the TripWaypoint), `"route"` (an array of LatLng), `"remainingTimeSeconds"`,
/// `"remainingDistanceMeters"`, `"delayCategory"` (0 no data, 1 heavy, 2 medium, 3 light) with
/// `"delayCategoryName"`, `"lightingMode"` (`"normal"` or `"lowLight"`), `"percentAboveLimit"`, or
/// `"location"` (`latitude`, `longitude`, and `altitude`, `bearing`, `speed`, `time` when known).
struct ProgressEventLine {
    var trip: String
    var event: TripProgressEvent

    /// The JSON line, line feed included.
    func json() throws -> [UInt8] {
        var object = JSONObjectWriter()
        object.member("trip", .string(trip))
        object.member("event", .string(event.name))
        switch event {
        case .arrivedAtWaypoint(let waypoint):
            object.member("waypoint", .json(String(decoding: try waypoint.jsonUTF8Bytes(), as: UTF8.self)))
        case .routeChanged(let route):
            object.member(
                "route", .jsonArray(try route.map { String(decoding: try $0.jsonUTF8Bytes(), as: UTF8.self) }))
        case .remainingTime(let seconds):
            object.member("remainingTimeSeconds", .json(Self.number(seconds)))
        case .remainingDistance(let meters):
            object.member("remainingDistanceMeters", .json(Self.number(meters)))
        case .delayCategory(let category):
            object.member("delayCategory", .integer(category.rawValue))
            object.member("delayCategoryName", .string(category.description))
        case .lightingMode(let mode):
            object.member("lightingMode", .string(mode.description))
        case .speeding(let percent):
            object.member("percentAboveLimit", .json(Self.number(percent)))
        case .locationUpdated(let location):
            var inner = JSONObjectWriter()
            inner.member("latitude", .json(Self.number(location.coordinate.latitude)))
            inner.member("longitude", .json(Self.number(location.coordinate.longitude)))
            if let altitude = location.altitude { inner.member("altitude", .json(Self.number(altitude))) }
            if let bearing = location.bearing { inner.member("bearing", .json(Self.number(bearing))) }
            if let speed = location.speed { inner.member("speed", .json(Self.number(speed))) }
            if let time = location.time {
                inner.member("time", .json(String(decoding: try time.jsonUTF8Bytes(), as: UTF8.self)))
            }
            object.member("location", .json(inner.result))
        }
        return Array((object.result + "\n").utf8)
    }

    /// A line for people.
    func human() -> [UInt8] {
        let tripID = TripName.lastSegment(of: trip)
        let what: String
        switch event {
        case .arrivedAtWaypoint(let waypoint):
            what = "arrived at \(waypoint.waypointType.protoName ?? "waypoint")"
        case .routeChanged(let route): what = "new route of " + TripEventLine.counted(route.count, "point", "points")
        case .remainingTime(let seconds): what = "\(Self.whole(seconds)) s to the next stop"
        case .remainingDistance(let meters): what = "\(Self.whole(meters)) m to the next stop"
        case .delayCategory(let category): what = "traffic delay \(category)"
        case .lightingMode(let mode): what = mode == .normal ? "daylight" : "night: low light"
        case .speeding(let percent):
            what = percent > 0 ? "speeding, \(Self.whole(percent)) % over" : "within the limit"
        case .locationUpdated(let location):
            let latitude = (location.coordinate.latitude * 1e5).rounded() / 1e5
            let longitude = (location.coordinate.longitude * 1e5).rounded() / 1e5
            what = "at \(latitude), \(longitude)" + (location.speed.map { ", \(Self.whole($0 * 3.6)) km/h" } ?? "")
        }
        return Array("\(tripID)  \(what)\n".utf8)
    }

    /// A number rounded to a whole one for people; a value no integer holds (not finite, or past
    /// 2^63) is written as Swift writes the double.
    static func whole(_ value: Double) -> String {
        let rounded = value.rounded()
        guard let integer = Int64(exactly: rounded) else { return "\(rounded)" }
        return String(integer)
    }

    /// A finite number as JSON: integral values without a fraction.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
