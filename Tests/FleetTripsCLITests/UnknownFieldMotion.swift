import FleetEngineCodec
import FleetEngineEmulator
import FleetEngineTestSupport

/// A trip the emulator serves as a newer Fleet Engine would, with a field `Trip` does not define
/// (127) and one its pickup point's `LatLng` does not define (9).
struct UnknownFieldMotion: TripMotion {
    /// Whether the trip is COMPLETE (followed to its end at once) rather than ENROUTE_TO_PICKUP (one
    /// that can be updated).
    var complete: Bool

    /// The trip's binary form: trip_status, pickup_point { point { latitude 1, field 9 } }, field 127.
    var bytes: [UInt8] {
        hexBytes((complete ? "1805" : "1802") + "2a0e0a0c09000000000000f03f489601" + "f80701")
    }

    /// The same trip at every instant.
    func trip(at elapsed: Duration) -> Trip {
        (try? Trip(serializedBytes: bytes)) ?? Trip()
    }

    /// What follows `holds` in the note about the trip: the fields in the order the codec writes
    /// them, the known fields first.
    static let noted =
        "holds 2 fields maps.fleetengine.v1.Trip does not define, which its JSON cannot show: field 9 of "
        + "maps.fleetengine.v1.Trip.pickup_point.point; field 127 of maps.fleetengine.v1.Trip\n"
}
