import FleetEngineStatus
import Foundation

extension TripName {
    /// The name itself when its trip id is in Unicode Normalization Form C, as Fleet Engine's
    /// reference requires of a trip id (CreateTripRequest.trip_id: "normalized in Unicode
    /// Normalization Form C").
    ///
    /// Swift's `String` compares by canonical equivalence, so without this check `caf\u{E9}` and
    /// `cafe\u{301}` would be one trip to the store: the second CreateTrip would be ALREADY_EXISTS
    /// and a GetTrip of either would return the first. Once every id is in NFC, canonically equivalent
    /// ids are the same scalars, and the store's matching is exact.
    ///
    /// - Throws: INVALID_ARGUMENT with a `BadRequest` violation of `field`, naming the id.
    func requiringNormalizationFormC(field: String = "name") throws(FleetEngineError) -> TripName {
        try Self.requireNormalizationFormC(tripID, kind: "trip id", field: field)
        return self
    }

    /// Throws unless `id` is in Unicode Normalization Form C; `kind` names it in the message.
    static func requireNormalizationFormC(_ id: String, kind: String, field: String) throws(FleetEngineError) {
        // ASCII is always in NFC; most ids are, and skip the normalization.
        guard id.utf8.contains(where: { $0 >= 0x80 }) else { return }
        guard id.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(id.unicodeScalars) else {
            let scalars = id.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
            throw EmulatorErrors.invalidArgument(
                field: field,
                "the \(kind) \"\(id)\" (\(scalars.joined(separator: " "))) is not in Unicode Normalization Form C, "
                    + "as Fleet Engine requires")
        }
    }
}
