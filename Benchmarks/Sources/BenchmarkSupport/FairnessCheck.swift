import CRawProtobufC
import FleetEngineCodec
import SwiftProtobuf
import SwiftProtobufModels

/// Proves, before anything is timed, that every implementation reads a fixture as the same message:
/// each one's re-encoding is byte for byte the fixture, and both JSON printers print the value
/// Google's printer did. Without this a faster number could come from doing less work.
public enum FairnessCheck {
    /// Checks that FleetEngineCodec, swift-protobuf and protobuf-c (with its default allocator and
    /// in an arena) all decode the fixture and re-encode it to exactly its bytes.
    public static func verifyBinary<Ours: ProtobufMessage, Theirs: SwiftProtobuf.Message>(
        _ fixture: BenchmarkFixture,
        ours: Ours.Type,
        theirs: Theirs.Type,
        kind: raw_message_kind
    ) throws(BenchmarkSetupError) {
        let name = fixture.caseName
        do {
            let decoded = try Ours(serializedBytes: fixture.bytes)
            guard decoded.serializedBytes() == fixture.bytes else {
                throw BenchmarkSetupError("FleetEngineCodec does not re-encode \(name) to the same bytes")
            }
        } catch let error as CodecError {
            throw BenchmarkSetupError("FleetEngineCodec cannot decode \(name): \(error)")
        } catch let error as BenchmarkSetupError {
            throw error
        } catch {
            throw BenchmarkSetupError("\(error)")
        }

        do {
            let decoded = try Theirs(serializedBytes: fixture.bytes)
            let encoded: [UInt8] = try decoded.serializedBytes()
            guard encoded == fixture.bytes else {
                throw BenchmarkSetupError("swift-protobuf does not re-encode \(name) to the same bytes")
            }
            guard decoded.unknownFields.data.isEmpty else {
                throw BenchmarkSetupError("swift-protobuf keeps unknown fields in \(name): the schemas differ")
            }
        } catch let error as BenchmarkSetupError {
            throw error
        } catch {
            throw BenchmarkSetupError("swift-protobuf cannot decode \(name): \(error)")
        }

        let message = try RawMessage(kind: kind, bytes: fixture.bytes, name: name)
        guard message.pack() == fixture.bytes else {
            throw BenchmarkSetupError("protobuf-c does not re-pack \(name) to the same bytes")
        }
        let counted = fixture.bytes.withUnsafeBufferPointer { raw_unpack_and_free(kind, $0.baseAddress, $0.count) }
        let inArena = fixture.bytes.withUnsafeBufferPointer { raw_unpack_in_arena(kind, $0.baseAddress, $0.count) }
        guard counted >= 0, counted == inArena else {
            throw BenchmarkSetupError("protobuf-c unpacks \(name) differently in an arena (\(inArena) vs \(counted))")
        }
    }

    /// Checks that FleetEngineCodec and swift-protobuf print the fixture as the same JSON value as
    /// Google's printer did (the golden `.json`).
    public static func verifyJSON<Ours: ProtobufMessage, Theirs: SwiftProtobuf.Message>(
        _ fixture: BenchmarkFixture,
        ours: Ours.Type,
        theirs: Theirs.Type
    ) throws(BenchmarkSetupError) {
        let google = try JSONValue.parse(fixture.json, from: "the golden \(fixture.caseName).json")
        let oursJSON: [UInt8]
        let theirsJSON: [UInt8]
        do {
            oursJSON = try Ours(serializedBytes: fixture.bytes).jsonUTF8Bytes()
        } catch {
            throw BenchmarkSetupError("FleetEngineCodec cannot print \(fixture.caseName) as JSON: \(error)")
        }
        do {
            theirsJSON = try Theirs(serializedBytes: fixture.bytes).jsonUTF8Bytes()
        } catch {
            throw BenchmarkSetupError("swift-protobuf cannot print \(fixture.caseName) as JSON: \(error)")
        }
        guard try JSONValue.parse(oursJSON, from: "FleetEngineCodec") == google else {
            throw BenchmarkSetupError("FleetEngineCodec's JSON for \(fixture.caseName) differs from Google's")
        }
        guard try JSONValue.parse(theirsJSON, from: "swift-protobuf") == google else {
            throw BenchmarkSetupError("swift-protobuf's JSON for \(fixture.caseName) differs from Google's")
        }
    }
}

extension FairnessCheck {
    /// Runs ``verifyBinary(_:ours:theirs:kind:)`` on every fixture, and ``verifyJSON(_:ours:theirs:)``
    /// on the trips whose JSON printing is measured.
    public static func verifyAll(_ fixtures: [BenchmarkFixture], jsonLabels: Set<String>) throws(BenchmarkSetupError) {
        for fixture in fixtures {
            switch fixture.message {
            case .trip:
                try verifyBinary(
                    fixture, ours: Trip.self, theirs: Maps_Fleetengine_V1_Trip.self, kind: RAW_MESSAGE_TRIP)
                if jsonLabels.contains(fixture.label) {
                    try verifyJSON(fixture, ours: Trip.self, theirs: Maps_Fleetengine_V1_Trip.self)
                }
            case .searchTripsResponse:
                try verifyBinary(
                    fixture,
                    ours: SearchTripsResponse.self,
                    theirs: Maps_Fleetengine_V1_SearchTripsResponse.self,
                    kind: RAW_MESSAGE_SEARCH_TRIPS_RESPONSE
                )
                if jsonLabels.contains(fixture.label) {
                    try verifyJSON(
                        fixture,
                        ours: SearchTripsResponse.self,
                        theirs: Maps_Fleetengine_V1_SearchTripsResponse.self
                    )
                }
            }
        }
    }
}
