import BenchmarkSupport
import CRawProtobufC
import FleetEngineCodec
import SwiftProtobuf
import SwiftProtobufModels

/// One operation by one implementation on one fixture, as a closure that performs it once and
/// returns a number derived from the result (summed by the caller, so no result is dead).
struct MeasuredOperation {
    let operation: Operation
    let implementation: Implementation
    let run: () throws -> Int

    /// Prepares the operation: the message to encode or print is decoded here, once.
    init(_ operation: Operation, _ implementation: Implementation, _ fixture: BenchmarkFixture) throws {
        self.operation = operation
        self.implementation = implementation
        switch fixture.message {
        case .trip:
            run = try Self.make(
                operation,
                implementation,
                fixture,
                ours: Trip.self,
                theirs: Maps_Fleetengine_V1_Trip.self,
                kind: RAW_MESSAGE_TRIP
            )
        case .searchTripsResponse:
            run = try Self.make(
                operation,
                implementation,
                fixture,
                ours: SearchTripsResponse.self,
                theirs: Maps_Fleetengine_V1_SearchTripsResponse.self,
                kind: RAW_MESSAGE_SEARCH_TRIPS_RESPONSE
            )
        }
    }

    private static func make<Ours: ProtobufMessage, Theirs: SwiftProtobuf.Message>(
        _ operation: Operation,
        _ implementation: Implementation,
        _ fixture: BenchmarkFixture,
        ours: Ours.Type,
        theirs: Theirs.Type,
        kind: raw_message_kind
    ) throws -> () throws -> Int {
        let bytes = fixture.bytes
        switch (operation, implementation) {
        case (.decode, .ours):
            return { try Ours(serializedBytes: bytes).unknownFields.bytes.count }
        case (.decode, .swiftProtobuf):
            return { try Theirs(serializedBytes: bytes).unknownFields.data.count }
        case (.decode, .protobufC):
            return { bytes.withUnsafeBufferPointer { raw_unpack_and_free(kind, $0.baseAddress, $0.count) } }
        case (.decode, .protobufCArena):
            return { bytes.withUnsafeBufferPointer { raw_unpack_in_arena(kind, $0.baseAddress, $0.count) } }
        case (.encode, .ours):
            let message = try Ours(serializedBytes: bytes)
            return { message.serializedBytes().count }
        case (.encode, .swiftProtobuf):
            let message = try Theirs(serializedBytes: bytes)
            return { (try message.serializedBytes() as [UInt8]).count }
        case (.encode, .protobufC):
            let message = try RawMessage(kind: kind, bytes: bytes, name: fixture.caseName)
            return { message.packIntoOutput() }
        case (.json, .ours):
            let message = try Ours(serializedBytes: bytes)
            return { try message.jsonUTF8Bytes().count }
        case (.json, .oursString):
            let message = try Ours(serializedBytes: bytes)
            return { try message.jsonString().utf8.count }
        case (.json, .swiftProtobuf):
            let message = try Theirs(serializedBytes: bytes)
            return { try message.jsonString().utf8.count }
        default:
            throw BenchmarkSetupError("\(implementation.rawValue) does not \(operation.rawValue)")
        }
    }
}
