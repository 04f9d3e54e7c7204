/// The copy-on-write box of a message whose fields live behind one reference (`Trip`,
/// `TripWaypoint`, `VehicleLocation`, `RequestHeader`), so that copying the message copies one
/// reference: shared between copies until one of them changes a field (each message's
/// `uniqueStorage()` makes the copy first).
final class MessageStorage<Fields: Hashable & Sendable>: @unchecked Sendable {
    var fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    /// Whether the fields equal `other`'s, compared where they are: reading `fields` out of the
    /// class copies the struct and retains every reference in it, twice per comparison.
    func hasFields(equalTo other: MessageStorage) -> Bool {
        if self === other { return true }
        return withUnsafeMutablePointer(to: &fields) { lhs in
            withUnsafeMutablePointer(to: &other.fields) { rhs in lhs.pointee == rhs.pointee }
        }
    }
}
