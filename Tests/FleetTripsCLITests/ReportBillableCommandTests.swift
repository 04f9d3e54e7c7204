import FleetEngineCodec
import FleetEngineEmulator
import Testing

@testable import FleetTripsCLI

@Suite("fleettrips report-billable: ReportBillableTrip against the emulator, and the arguments it refuses")
struct ReportBillableCommandTests {
    /// One `--related-id` more than Fleet Engine takes.
    static let tooManyRelatedIDs: [String] = (0...50).flatMap { ["--related-id", "r\($0)"] }

    static func billableName(_ tripID: String) -> String {
        "providers/\(ClientCommandTests.provider)/billableTrips/\(tripID)"
    }

    @Test("report-billable is a subcommand of fleettrips, and its help names the platforms it takes")
    func registered() {
        let names = FleetTrips.configuration.subcommands.map { $0.configuration.commandName }
        #expect(names.contains("report-billable"))
        let help = ReportBillableCommand.helpMessage(columns: 10_000)
        #expect(help.contains("one of SERVER, WEB, ANDROID, IOS, OTHERS, in any case"))
        #expect(help.contains("--related-id <id>"))
    }

    @Test("a report reaches the emulator as given, the country code in upper case, and prints {} as delete does")
    func report() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            try ClientCommandTests.createNewTrip("trip-1", in: emulator)
            let result = try await ClientCommandTests.call(
                [
                    "report-billable", Self.billableName("trip-1"), "--country-code", "us", "--platform", "android",
                    "--related-id", "trip-0", "--related-id", "trip-2",
                ] + ClientCommandTests.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 0)
            #expect(result.errorOutput == "")
            #expect(result.output == "{}\n")
            var expected = ReportBillableTripRequest()
            expected.name = Self.billableName("trip-1")
            expected.countryCode = "US"
            expected.platform = .android
            expected.relatedIDs = ["trip-0", "trip-2"]
            #expect(emulator.billingReports == [expected])
        }
    }

    @Test("a report of a trip the emulator does not hold: NOT_FOUND, exit status 69, one JSON object")
    func unknownTrip() async throws {
        try await withFleetEngineEmulator(EmulatorConfiguration(accessPolicy: .noAuth)) { emulator in
            let result = try await ClientCommandTests.call(
                [
                    "report-billable", Self.billableName("missing"), "--country-code", "FR", "--platform", "WEB",
                    "--json",
                ]
                    + ClientCommandTests.connection(try await emulator.listeningPort()))
            #expect(result.exitCode == 69)
            #expect(result.output == "")
            let object = try ClientCommandTests.errorObject(result.errorOutput)
            #expect(object["code"] as? Int == 5)
            #expect(object["name"] as? String == "NOT_FOUND")
            #expect(emulator.billingReports.isEmpty)
        }
    }

    @Test(
        "--platform takes the BillingPlatformIdentifier names in any case",
        arguments: [
            ("SERVER", BillingPlatformIdentifier.server), ("web", .web), ("Android", .android), ("iOS", .ios),
            ("others", .others),
        ])
    func platforms(text: String, platform: BillingPlatformIdentifier) throws {
        let command = try #require(
            try CommandRunner.parse(
                ["report-billable", Self.billableName("t"), "--country-code", "DE", "--platform", text])
                as? ReportBillableCommand)
        #expect(try command.makeRequest().platform == platform)
    }

    @Test(
        "arguments that cannot make a report are usage errors saying what is wrong",
        arguments: [
            (
                ["providers/test-project/trips/t-1", "--country-code", "US", "--platform", "IOS"],
                "'providers/test-project/trips/t-1' is a trip's name; ReportBillableTrip takes a billable trip's: "
                    + "providers/test-project/billableTrips/t-1"
            ),
            (
                ["billableTrips/t-1", "--country-code", "US", "--platform", "IOS"],
                "\"billableTrips/t-1\" is not a billable trip name of the form "
                    + "providers/{provider}/billableTrips/{billable_trip}"
            ),
            (
                ["providers/test-project/billableTrips/t-1", "--country-code", "USA", "--platform", "IOS"],
                "--country-code 'USA' is not a two-letter country code (ISO 3166-1 alpha-2), e.g. US"
            ),
            (
                ["providers/test-project/billableTrips/t-1", "--country-code", "U1", "--platform", "IOS"],
                "--country-code 'U1' is not a two-letter country code (ISO 3166-1 alpha-2), e.g. US"
            ),
            (
                ["providers/test-project/billableTrips/t-1", "--country-code", "ÜS", "--platform", "IOS"],
                "--country-code 'ÜS' is not a two-letter country code (ISO 3166-1 alpha-2), e.g. US"
            ),
            (
                ["providers/test-project/billableTrips/t-1", "--country-code", "US", "--platform", "car"],
                "--platform 'car' is not a billing platform; give one of SERVER, WEB, ANDROID, IOS, OTHERS"
            ),
            (
                [
                    "providers/test-project/billableTrips/t-1", "--country-code", "US", "--platform",
                    "BILLING_PLATFORM_IDENTIFIER_UNSPECIFIED",
                ],
                "--platform 'BILLING_PLATFORM_IDENTIFIER_UNSPECIFIED' is not a billing platform; give one of SERVER, "
                    + "WEB, ANDROID, IOS, OTHERS"
            ),
            (
                [
                    "providers/test-project/billableTrips/t-1", "--country-code", "US", "--platform", "IOS",
                    "--related-id", "a", "--related-id", "",
                ],
                "--related-id #2 is empty; give a trip id"
            ),
            (
                ["providers/test-project/billableTrips/t-1", "--country-code", "US", "--platform", "IOS"]
                    + tooManyRelatedIDs,
                "--related-id is given 51 times; Fleet Engine takes at most 50"
            ),
        ] as [([String], String)])
    func refused(arguments: [String], message: String) {
        let rejection = ClientCommandTests.rejection(["report-billable"] + arguments)
        #expect(rejection.message == message)
        #expect(rejection.exitCode == 64)
    }

    @Test("--country-code and --platform are required")
    func required() {
        let rejection = ClientCommandTests.rejection(["report-billable", Self.billableName("t"), "--platform", "WEB"])
        #expect(rejection.message == "Missing expected argument '--country-code <code>'")
        #expect(rejection.exitCode == 64)
    }
}
