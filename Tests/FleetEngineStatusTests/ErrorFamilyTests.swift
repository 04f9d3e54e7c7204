import FleetEngineStatus
import Testing

@Suite("ErrorFamily")
struct ErrorFamilyTests {
    /// The Consumer SDK's error model for the two families it names, and the module's own families
    /// for the rest.
    static let table: [(StatusCode, ErrorFamily)] = [
        (.ok, .success),
        (.cancelled, .serverOrNetwork),
        (.unknown, .serviceFault),
        (.invalidArgument, .client),
        (.deadlineExceeded, .serverOrNetwork),
        (.notFound, .client),
        (.alreadyExists, .conflict),
        (.permissionDenied, .client),
        (.resourceExhausted, .client),
        (.failedPrecondition, .conflict),
        (.aborted, .serverOrNetwork),
        (.outOfRange, .conflict),
        (.unimplemented, .serviceFault),
        (.internalError, .serviceFault),
        (.unavailable, .serverOrNetwork),
        (.dataLoss, .serviceFault),
        (.unauthenticated, .client),
    ]

    @Test(arguments: table)
    func everyCodeBelongsToItsFamily(code: StatusCode, family: ErrorFamily) {
        #expect(ErrorFamily(code) == family)
        #expect(FleetEngineError(code: code, message: "").family == family)
        #expect(family.recoversByItself == (family == .serverOrNetwork))
    }

    @Test func tableCoversEveryKnownCode() {
        #expect(Self.table.map(\.0) == StatusCode.allKnown)
    }

    @Test(arguments: [-1, 17, 42, 1000])
    func undefinedCodeIsAServiceFault(number: Int) {
        #expect(ErrorFamily(StatusCode(rawValue: number)) == .serviceFault)
    }

    @Test(arguments: StatusCode.allKnown + [StatusCode(rawValue: 99)])
    func interruptedRefreshIsServerOrNetworkWhateverTheCode(code: StatusCode) {
        let error = FleetEngineError(code: code, message: "refresh ended", origin: .interruptedRefresh)
        #expect(error.family == .serverOrNetwork)
        #expect(error.isRetryable)
    }

    @Test(arguments: [
        (ErrorFamily.serverOrNetwork, "server-network"), (.client, "client"), (.conflict, "conflict"),
        (.serviceFault, "service-fault"), (.success, "success"),
    ])
    func familyPrintsItsNameAndIsReadBackFromIt(family: ErrorFamily, name: String) {
        #expect(family.description == name)
        #expect(ErrorFamily(name: name) == family)
    }

    @Test(arguments: ["", "server", "Client", "server_network", "fault"])
    func unknownFamilyNameGivesNil(name: String) {
        #expect(ErrorFamily(name: name) == nil)
    }

    @Test func familiesAreDistinct() {
        let all: Set<ErrorFamily> = [.serverOrNetwork, .client, .conflict, .serviceFault, .success]
        #expect(all.count == 5)
    }
}
