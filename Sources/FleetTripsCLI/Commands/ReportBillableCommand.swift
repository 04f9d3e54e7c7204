import ArgumentParser
import FleetEngineClient
import FleetEngineCodec
import FleetEngineStatus

/// `fleettrips report-billable`: reports a trip for billing (ReportBillableTrip).
struct ReportBillableCommand: TripServiceCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "report-billable",
        abstract: "Report a trip for billing (ReportBillableTrip); prints the empty response, {}.",
        discussion: """
            The billable trip is named providers/{provider_id}/billableTrips/{billable_trip_id}; e.g.
              fleettrips report-billable providers/my-project/billableTrips/trip-1 \\
                --country-code US --platform ANDROID

            The call is not retried, as in Google's own clients, so that a trip is not reported twice. The \
            solution type is left unspecified, which Fleet Engine takes as on-demand rides and deliveries.

            \(TripServiceHelp.failureContract)

            \(TripServiceHelp.commonDiscussion)
            """
    )

    /// Fleet Engine's limit on `related_ids` (ReportBillableTripRequest: "limited to 50").
    static let maximumRelatedIDs = 50

    /// The billable trip's resource name.
    @Argument(
        help: ArgumentHelp(
            "The billable trip's name: providers/{provider_id}/billableTrips/{billable_trip_id}.", valueName: "name"))
    var name: String

    /// Where the trip took place.
    @Option(
        help: ArgumentHelp(
            "The two-letter (ISO 3166-1 alpha-2) code of the country the trip took place in, e.g. US; sent in "
                + "upper case.",
            valueName: "code"))
    var countryCode: String

    /// The platform the trip was requested from.
    @Option(
        help: ArgumentHelp(
            "The platform the trip was requested from: one of \(BillingPlatformIdentifier.argumentNames), in any "
                + "case (the BillingPlatformIdentifier names).",
            valueName: "platform"))
    var platform: String

    /// Ids of trips related to this one.
    @Option(
        name: .customLong("related-id"),
        help: ArgumentHelp(
            "The id of a trip related to this one (repeat for more, at most \(maximumRelatedIDs)).", valueName: "id"))
    var relatedIDs: [String] = []

    /// `--endpoint`, the token, `--deadline`, `--json`.
    @OptionGroup(title: "Connection") var connection: ConnectionOptions

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a name that is not a billable trip's, a country code that is not two letters, a
    /// platform that is not one, and empty or too many related ids.
    func validate() throws {
        _ = try makeRequest()
    }

    /// The request the arguments describe.
    ///
    /// - Throws: `ValidationError` saying which argument is wrong and how.
    func makeRequest() throws(ValidationError) -> ReportBillableTripRequest {
        var request = ReportBillableTripRequest()
        request.name = try Self.billableTripName(name).description
        request.countryCode = try Self.countryCode(countryCode)
        request.platform = try BillingPlatformIdentifier.parsingArgument(platform)
        if let empty = relatedIDs.firstIndex(where: \.isEmpty) {
            throw ValidationError("--related-id #\(empty + 1) is empty; give a trip id")
        }
        guard relatedIDs.count <= Self.maximumRelatedIDs else {
            throw ValidationError(
                "--related-id is given \(relatedIDs.count) times; Fleet Engine takes at most \(Self.maximumRelatedIDs)")
        }
        request.relatedIDs = relatedIDs
        return request
    }

    /// The billable trip `text` names, checked as the client checks it before a call.
    static func billableTripName(_ text: String) throws(ValidationError) -> BillableTripName {
        do throws(FleetEngineError) {
            return try BillableTripName(parsing: text)
        } catch {
            if let trip = try? TripName(parsing: text) {
                throw ValidationError(
                    "'\(text)' is a trip's name; ReportBillableTrip takes a billable trip's: "
                        + BillableTripName(reporting: trip).description)
            }
            throw ValidationError(error.message)
        }
    }

    /// `text` as a country code: two ASCII letters, in upper case.
    static func countryCode(_ text: String) throws(ValidationError) -> String {
        guard text.count == 2, text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ValidationError(
                "--country-code '\(text)' is not a two-letter country code (ISO 3166-1 alpha-2), e.g. US")
        }
        return text.uppercased()
    }

    /// Reports the trip and writes `{}` (ReportBillableTrip's `google.protobuf.Empty`) to `output`;
    /// a failure goes to `errorOutput` (``TripServiceSession/run(errorOutput:_:)``).
    func run(output: inout some ByteSink, errorOutput: inout some ByteSink) async throws {
        let request = try makeRequest()
        try await connection.session().run(errorOutput: &errorOutput) { client in
            try await client.reportBillableTrip(request)
            try output.write(try Empty().jsonLine())
        }
    }
}
