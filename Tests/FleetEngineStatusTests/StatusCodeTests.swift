import FleetEngineStatus
import Foundation
import Testing

@Suite("StatusCode")
struct StatusCodeTests {
    /// Every code gRPC defines: the constant, its number and its canonical name (doc/statuscodes.md).
    static let table: [(StatusCode, Int, String)] = [
        (.ok, 0, "OK"),
        (.cancelled, 1, "CANCELLED"),
        (.unknown, 2, "UNKNOWN"),
        (.invalidArgument, 3, "INVALID_ARGUMENT"),
        (.deadlineExceeded, 4, "DEADLINE_EXCEEDED"),
        (.notFound, 5, "NOT_FOUND"),
        (.alreadyExists, 6, "ALREADY_EXISTS"),
        (.permissionDenied, 7, "PERMISSION_DENIED"),
        (.resourceExhausted, 8, "RESOURCE_EXHAUSTED"),
        (.failedPrecondition, 9, "FAILED_PRECONDITION"),
        (.aborted, 10, "ABORTED"),
        (.outOfRange, 11, "OUT_OF_RANGE"),
        (.unimplemented, 12, "UNIMPLEMENTED"),
        (.internalError, 13, "INTERNAL"),
        (.unavailable, 14, "UNAVAILABLE"),
        (.dataLoss, 15, "DATA_LOSS"),
        (.unauthenticated, 16, "UNAUTHENTICATED"),
    ]

    @Test(arguments: table)
    func knownCodeHasItsNumberAndCanonicalName(code: StatusCode, number: Int, name: String) {
        #expect(code.rawValue == number)
        #expect(StatusCode(rawValue: number) == code)
        #expect(code.name == name)
        #expect(code.description == name)
        #expect(code.isKnown)
        #expect(code.effective == code)
        #expect(StatusCode(name: name) == code)
    }

    @Test(arguments: table)
    func nameIsReadWhateverItsCaseAndSeparator(code: StatusCode, number: Int, name: String) {
        #expect(StatusCode(name: name.lowercased()) == code)
        #expect(StatusCode(name: name.replacingOccurrences(of: "_", with: "-").lowercased()) == code)
        #expect(StatusCode(name: name.replacingOccurrences(of: "_", with: "-")) == code)
    }

    @Test func allKnownListsTheSeventeenCodesInOrder() {
        #expect(StatusCode.allKnown == Self.table.map(\.0))
        #expect(StatusCode.allKnown.map(\.rawValue) == Array(0...16))
    }

    @Test(arguments: ["CANCELED", "canceled", "Canceled"])
    func americanSpellingOfCancelledIsAccepted(name: String) {
        #expect(StatusCode(name: name) == .cancelled)
    }

    @Test(arguments: ["", "NOTFOUND", "NOT FOUND", "OK ", "CODE_17", "17", "INTERNAL_ERROR", "CANCELLEDD"])
    func unknownNameGivesNil(name: String) {
        #expect(StatusCode(name: name) == nil)
    }

    @Test(arguments: [-1, 17, 42, 1000, Int(Int32.max), Int(Int32.min)])
    func numberOutsideTheSeventeenIsKeptAndCountsAsUnknown(number: Int) {
        let code = StatusCode(rawValue: number)
        #expect(code.rawValue == number)
        #expect(!code.isKnown)
        #expect(code.name == nil)
        #expect(code.description == "CODE_\(number)")
        #expect(code.effective == .unknown)
        #expect(code != .unknown)
    }

    @Test func codesAreHashableByValue() {
        let set: Set<StatusCode> = [.ok, StatusCode(rawValue: 0), .unavailable, StatusCode(rawValue: 99)]
        #expect(set.count == 3)
        #expect(set.contains(StatusCode(rawValue: 14)))
    }
}
