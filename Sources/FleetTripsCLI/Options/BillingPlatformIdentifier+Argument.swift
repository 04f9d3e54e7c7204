import ArgumentParser
import FleetEngineCodec

extension BillingPlatformIdentifier {
    /// The platforms `--platform` names: every value of the enum but the unspecified one, which
    /// Fleet Engine refuses (ReportBillableTripRequest.platform is required).
    static let argumentValues: [BillingPlatformIdentifier] = allNamedValues.filter { $0 != .unspecified }

    /// The names `--platform` takes, as the proto spells them: `SERVER, WEB, ANDROID, IOS, OTHERS`.
    static var argumentNames: String { argumentValues.compactMap(\.protoName).joined(separator: ", ") }

    /// The platform a command-line argument names: a value's name in the proto, in any case
    /// (`ANDROID`, `android`, `iOS`).
    ///
    /// - Throws: `ValidationError` for the unspecified value and for a name that is not a
    ///   platform's, listing the names taken.
    static func parsingArgument(_ text: String) throws(ValidationError) -> BillingPlatformIdentifier {
        let name = text.uppercased()
        guard let platform = BillingPlatformIdentifier(protoName: name), platform != .unspecified else {
            throw ValidationError("--platform '\(text)' is not a billing platform; give one of \(argumentNames)")
        }
        return platform
    }
}
