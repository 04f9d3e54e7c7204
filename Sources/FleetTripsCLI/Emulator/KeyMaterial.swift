import Foundation

/// A PEM key given on the command line: a path to a PEM file, or the PEM text itself.
enum KeyMaterial {
    /// The PEM text of `argument`: itself when it is PEM text, else the file it names.
    static func pem(_ argument: String, option: String) throws(FleetTripsError) -> String {
        if argument.hasPrefix("-----BEGIN") { return argument }
        guard let data = FileManager.default.contents(atPath: argument) else {
            throw FleetTripsError(code: .unreadableInput, message: "\(option): cannot read \(argument)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
