/// Where a message's binary form holds a field its schema does not define, found by
/// ``ProtobufMessage/unknownFieldLocations(in:options:)``.
///
/// Decoding keeps such fields (``ProtobufMessage/unknownFields``) and binary encoding writes them
/// back, but proto3 JSON has no place for them: this says what a JSON form leaves out.
public struct UnknownFieldLocation: Sendable, Hashable, CustomStringConvertible {
    /// The message that holds the field, from the top: `maps.fleetengine.v1.Trip.route[2]`.
    public var path: String
    /// The field's number.
    public var fieldNumber: Int
    /// The offset of the field's tag in the bytes that were read.
    public var byteOffset: Int

    /// A location from its parts.
    public init(path: String, fieldNumber: Int, byteOffset: Int) {
        self.path = path
        self.fieldNumber = fieldNumber
        self.byteOffset = byteOffset
    }

    /// `field 99 of maps.fleetengine.v1.Trip.route[2] at byte 1234`.
    public var description: String { description(withOffset: true) }

    /// ``description``, or without `withOffset` only `field 99 of maps.fleetengine.v1.Trip.route[2]`:
    /// for fields found in bytes other than those that came (a message encoded again).
    public func description(withOffset: Bool) -> String {
        let field = "field \(fieldNumber) of \(path)"
        return withOffset ? field + " at byte \(byteOffset)" : field
    }
}
