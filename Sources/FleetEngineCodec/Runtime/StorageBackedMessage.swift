/// A message whose fields live in one ``MessageStorage`` box: each value of it takes a heap
/// allocation of that box besides its own few bytes, which the decoded-size budget counts.
protocol StorageBackedMessage {
    associatedtype Fields: Hashable & Sendable
}

extension CBackedMessage {
    /// What a value takes on the heap besides its inline bytes: nothing, but for a boxed message.
    static var storageBytes: Int { 0 }
}

extension CBackedMessage where Self: StorageBackedMessage {
    /// The heap bytes one box takes: a class instance's 16-byte header and the fields, as malloc
    /// rounds them (to 16).
    static var storageBytes: Int {
        (16 + MemoryLayout<Fields>.size + 15) / 16 * 16
    }
}

// The boxed messages, as MessageStorage lists them; the generator gives each its `Fields`.
extension Trip: StorageBackedMessage {}
extension TripWaypoint: StorageBackedMessage {}
extension VehicleLocation: StorageBackedMessage {}
extension RequestHeader: StorageBackedMessage {}
