import FleetEngineCodec
import FleetEngineStatus
import TripTracking

/// The state of one trip as its page draws it, written as one Server-Sent Events message: the
/// route and its traffic, the waypoints, the vehicle, the panel's figures. Every key is always
/// present, null when unknown, so the page never guesses what a missing key means.
struct TripStateMessage {
    var tripName: String
    var seq: UInt64
    /// Milliseconds since 1970 when this message was made (the viewers' delivery delay is
    /// measured from it).
    var sentAt: Int64
    /// Milliseconds since 1970 of the last refresh that changed the trip.
    var updatedAt: Int64?
    var trip: Trip?
    var ended: Bool
    var error: FleetEngineError?

    /// `event: state`, `id:` and one `data:` line of JSON, ended by the blank line.
    func eventBytes() -> [UInt8] {
        var bytes = Array("event: state\nid: \(seq)\ndata: ".utf8)
        bytes.reserveCapacity(4096)
        bytes = json(appendingTo: bytes)
        bytes.append(contentsOf: "\n\n".utf8)
        return bytes
    }

    /// The JSON object, appended to `bytes`. The writer escapes every control character, so the
    /// object is one line, as a `data:` line must be.
    func json(appendingTo bytes: [UInt8] = []) -> [UInt8] {
        var writer = JSONWriter(appendingTo: bytes)
        writer.beginObject()
        writer.key("trip")
        writer.string(tripName)
        writer.key("tripId")
        writer.string(TripName.lastSegment(of: tripName))
        writer.key("seq")
        writer.integer(seq)
        writer.key("sentAt")
        writer.integer(sentAt)
        writer.key("updatedAt")
        writer.optionalInteger(updatedAt)
        writer.key("status")
        if let trip { writer.string(trip.tripStatus.shortName) } else { writer.null() }
        writer.key("ended")
        writer.bool(ended)
        writeTrip(trip, to: &writer)
        writer.key("error")
        if let error {
            writer.beginObject()
            writer.key("code")
            writer.string(error.code.name ?? String(error.code.rawValue))
            writer.key("message")
            writer.string(error.message)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.endObject()
        return writer.takeBytes()
    }

    private func writeTrip(_ trip: Trip?, to writer: inout JSONWriter) {
        let parts = trip.map(TripParts.init)
        writer.key("vehicle")
        if let location = parts?.vehicleLocation, let point = location.location, point.isDrawable {
            writer.beginObject()
            writer.key("lat")
            writer.double(point.latitude)
            writer.key("lng")
            writer.double(point.longitude)
            writer.key("heading")
            writer.optionalInteger(location.heading)
            writer.key("time")
            writer.optionalInteger(location.updateTime.map(\.millisecondsSince1970))
            writer.endObject()
        } else {
            writer.null()
        }
        let route = parts?.activeRoute ?? []
        writer.key("route")
        writer.points(route)
        let traffic = parts?.activeRouteTraffic
        writer.key("traffic")
        writer.beginArray()
        for interval in traffic?.speedReadingInterval ?? [] {
            writer.arrayElement()
            writer.beginObject()
            writer.key("from")
            writer.integer(interval.startPolylinePointIndex)
            writer.key("to")
            writer.integer(interval.endPolylinePointIndex)
            writer.key("speed")
            writer.string(interval.speed.protoName ?? "SPEED_UNSPECIFIED")
            writer.endObject()
        }
        writer.endArray()
        writer.key("trafficPath")
        let ownPath = traffic.map(\.encodedPathToWaypoint).flatMap { $0.isEmpty ? nil : EncodedPolyline.decode($0) }
        writer.points(ownPath ?? [])
        writer.key("waypoints")
        writer.beginArray()
        for waypoint in trip?.remainingWaypoints ?? [] {
            writer.arrayElement()
            writeWaypoint(waypoint, to: &writer)
        }
        writer.endArray()
        writer.key("pickup")
        writer.point(parts?.pickupLocation?.point)
        writer.key("dropoff")
        writer.point(parts?.dropoffLocation?.point)
        writer.key("pickupEta")
        writer.optionalInteger(parts?.pickupETA?.millisecondsSince1970)
        writer.key("dropoffEta")
        writer.optionalInteger(parts?.dropoffETA?.millisecondsSince1970)
        writer.key("remainingSeconds")
        writer.optionalInteger(trip?.remainingTimeToFirstWaypoint.map { max(0, $0.seconds) })
        writer.key("remainingMeters")
        writer.optionalInteger(parts?.remainingDistanceMeters)
        writer.key("delay")
        writer.string(DelayCategory(route: parts?.activeRoute, traffic: traffic).description)
    }

    private func writeWaypoint(_ waypoint: TripWaypoint, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type")
        switch waypoint.waypointType {
        case .pickupWaypointType: writer.string("PICKUP")
        case .dropOffWaypointType: writer.string("DROP_OFF")
        case .intermediateDestinationWaypointType: writer.string("INTERMEDIATE_DESTINATION")
        default: writer.string("UNKNOWN")
        }
        writer.key("tripId")
        writer.string(waypoint.tripID)
        let point = waypoint.location?.point
        writer.key("lat")
        if let point, point.isDrawable { writer.double(point.latitude) } else { writer.null() }
        writer.key("lng")
        if let point, point.isDrawable { writer.double(point.longitude) } else { writer.null() }
        writer.key("eta")
        writer.optionalInteger(waypoint.eta?.millisecondsSince1970)
        writer.key("distanceMeters")
        writer.optionalInteger(waypoint.distanceMeters)
        writer.key("path")
        if !waypoint.pathToWaypoint.isEmpty {
            writer.points(waypoint.pathToWaypoint)
        } else if !waypoint.encodedPathToWaypoint.isEmpty,
            let path = EncodedPolyline.decode(waypoint.encodedPathToWaypoint)
        {
            writer.points(path)
        } else {
            writer.points([])
        }
        writer.endObject()
    }
}

extension LatLng {
    /// Whether the point can be drawn: finite, and on the Earth. A point that is not is left out
    /// rather than sent as JSON that is not a number.
    var isDrawable: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

extension Timestamp {
    /// Milliseconds since 1970, rounded down.
    var millisecondsSince1970: Int64 {
        seconds &* 1000 &+ Int64(nanos / 1_000_000)
    }
}

extension TripStatus {
    /// The status's name without the `TripStatus` enum's prefix where it has one: `NEW`,
    /// `ENROUTE_TO_PICKUP`, ..., `COMPLETE`, `CANCELED`; the number for one the schema lacks.
    var shortName: String {
        protoName ?? String(rawValue)
    }
}

extension JSONWriter {
    mutating func optionalInteger(_ value: (some BinaryInteger)?) {
        if let value { integer(value) } else { null() }
    }

    /// `[[lat, lng], ...]`, leaving out points that cannot be drawn.
    mutating func points(_ points: [LatLng]) {
        beginArray()
        for point in points where point.isDrawable {
            arrayElement()
            beginArray()
            arrayElement()
            double(point.latitude)
            arrayElement()
            double(point.longitude)
            endArray()
        }
        endArray()
    }

    /// `{"lat": .., "lng": ..}`, or null.
    mutating func point(_ point: LatLng?) {
        guard let point, point.isDrawable else {
            null()
            return
        }
        beginObject()
        key("lat")
        double(point.latitude)
        key("lng")
        double(point.longitude)
        endObject()
    }
}
