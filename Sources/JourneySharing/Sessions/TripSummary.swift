import FleetEngineCodec
import FleetEngineStatus

/// What the list page shows of one trip.
struct TripSummary {
    var tripName: String
    var status: TripStatus?
    var viewers: Int
    var following: Bool
    var ended: Bool
    var updatedAt: Int64?
    var refreshes: Int

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("trip")
        writer.string(tripName)
        writer.key("tripId")
        writer.string(TripName.lastSegment(of: tripName))
        writer.key("status")
        if let status { writer.string(status.shortName) } else { writer.null() }
        writer.key("viewers")
        writer.integer(viewers)
        writer.key("following")
        writer.bool(following)
        writer.key("ended")
        writer.bool(ended)
        writer.key("updatedAt")
        writer.optionalInteger(updatedAt)
        writer.key("refreshes")
        writer.integer(refreshes)
        writer.endObject()
    }
}
