import FleetEngineCodec
import Foundation
import Testing

/// `fleettrips serve --data` whose journal cannot grow (a file-size limit on the server's process,
/// as a full disk): a refused write must leave the journal as it was.
@Suite("fleettrips serve --data: a journal write that fails is cut off, and the folder still starts")
struct JournalWriteFailureTests {
    /// A trip whose journal entry is a few hundred bytes.
    static let smallTripJSON = ClientCommandTests.newTripJSON
    /// A trip whose journal entry alone is more than 512 bytes: its vehicle id is 600 characters.
    static let bigTripJSON =
        #"{"tripType":"EXCLUSIVE","pickupPoint":{"point":{"latitude":52.52,"longitude":13.405}},"vehicleId":""#
        + String(repeating: "v", count: 600) + #""}"#

    /// A new, empty folder for one test's data, removed by `body`'s end.
    static func withDataFolder<Value>(_ body: (String) async throws -> Value) async throws -> Value {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleettrips-journal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// The journal's length in bytes.
    static func journalLength(_ folder: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/trips.journal")
        return try #require(attributes[.size] as? Int)
    }

    /// Creates `tripID` with `--json`; the trip on success, or the failure's JSON object.
    static func create(_ tripID: String, _ tripJSON: String, port: Int) async throws -> Result<Trip, CallFailure> {
        let result = try await ClientCommandTests.call(
            ["create", "--provider", ClientCommandTests.provider, "--trip-id", tripID, "--trip", tripJSON, "--json"]
                + ClientCommandTests.connection(port))
        guard result.exitCode == 0 else {
            let object = try ClientCommandTests.errorObject(result.errorOutput)
            return .failure(CallFailure(code: object["code"] as? Int, message: object["message"] as? String))
        }
        return .success(try Trip(jsonString: String(result.output.dropLast())))
    }

    /// The trip `tripID` as GetTrip answers it, or the failure's code.
    static func get(_ tripID: String, port: Int) async throws -> Result<Trip, CallFailure> {
        let result = try await ClientCommandTests.call(
            ["get", ClientCommandTests.name(tripID), "--json"] + ClientCommandTests.connection(port))
        guard result.exitCode == 0 else {
            let object = try ClientCommandTests.errorObject(result.errorOutput)
            return .failure(CallFailure(code: object["code"] as? Int, message: object["message"] as? String))
        }
        return .success(try Trip(jsonString: String(result.output.dropLast())))
    }

    /// The status code of a refused call; nil for one that succeeded.
    static func failureCode<Value>(_ result: Result<Value, CallFailure>) -> Int? {
        guard case .failure(let failure) = result else { return nil }
        return failure.code
    }

    /// A refused call's status code and message.
    struct CallFailure: Error, Equatable {
        var code: Int?
        var message: String?
    }

    @Test("trips created until the journal cannot grow: the refused one is INTERNAL, leaves no bytes, is gone")
    func fillUntilRefused() async throws {
        try await Self.withDataFolder { folder in
            let ((acknowledged, refusedID), limited) = try await ServeProcess.with(
                dataDirectory: folder, fileSizeLimitBlocks: 2
            ) { port in
                var acknowledged: [String: Trip] = [:]
                for index in 1...40 {
                    let tripID = "trip-\(index)"
                    let before = try Self.journalLength(folder)
                    switch try await Self.create(tripID, Self.smallTripJSON, port: port) {
                    case .success(let trip):
                        acknowledged[tripID] = trip
                    case .failure(let failure):
                        #expect(failure.code == 13)
                        #expect(failure.message?.contains("/trips.journal") == true)
                        // The write was cut off: the journal is as long as before it.
                        #expect(try Self.journalLength(folder) == before)
                        return (acknowledged, tripID)
                    }
                }
                Issue.record("40 trips fit in a journal limited to 1024 bytes")
                return (acknowledged, "")
            }
            #expect(limited.status == 0, "\(limited.errorOutput)")
            #expect(!acknowledged.isEmpty)

            let ((), unlimited) = try await ServeProcess.with(dataDirectory: folder) { port throws -> Void in
                for (tripID, trip) in acknowledged {
                    #expect(try await Self.get(tripID, port: port).get() == trip)
                }
                #expect(Self.failureCode(try await Self.get(refusedID, port: port)) == 5)
            }
            #expect(unlimited.status == 0, "\(unlimited.errorOutput)")
        }
    }

    @Test("a write after a refused one is acknowledged, and a restart keeps the writes before and after it")
    func writesAfterARefusedOneAreKept() async throws {
        try await Self.withDataFolder { folder in
            let (trips, limited) = try await ServeProcess.with(dataDirectory: folder, fileSizeLimitBlocks: 1) { port in
                let first = try await Self.create("before", Self.smallTripJSON, port: port).get()
                let length = try Self.journalLength(folder)
                // Its entry runs past the 512-byte limit: the write stops partway.
                let refused = try await Self.create("refused", Self.bigTripJSON, port: port)
                #expect(Self.failureCode(refused) == 13)
                #expect(try Self.journalLength(folder) == length)
                let after = try await Self.create("after", Self.smallTripJSON, port: port).get()
                return [first, after]
            }
            #expect(limited.status == 0, "\(limited.errorOutput)")

            let ((), unlimited) = try await ServeProcess.with(dataDirectory: folder) { port throws -> Void in
                #expect(try await Self.get("before", port: port).get() == trips[0])
                #expect(try await Self.get("after", port: port).get() == trips[1])
                #expect(Self.failureCode(try await Self.get("refused", port: port)) == 5)
            }
            #expect(unlimited.status == 0, "\(unlimited.errorOutput)")
        }
    }
}
