import FleetTripsInput
import Foundation

/// A key given on the command line: a path to a PEM file, or the PEM text itself; or a secret in a
/// file, which keeps it out of the process list that other users of the machine can read.
enum KeyMaterial {
    /// The most bytes a secret file may hold: far above any HS256 secret, and a bound on what a file
    /// such as `/dev/zero` makes the tool read.
    static let maxSecretBytes = 64 << 10

    /// The secret in the file at `path`, without the ASCII whitespace around it (a final line feed,
    /// above all), as `--token-file` reads a token.
    ///
    /// - Throws: ``FleetTripsError/Code/unreadableInput`` when the file cannot be read, holds more
    ///   than ``maxSecretBytes`` or holds only whitespace; the message names `option` and the file,
    ///   never what it holds.
    static func secret(inFile path: String, option: String) throws(FleetTripsError) -> String {
        let contents: [UInt8]
        do throws(FleetTripsError) {
            contents = try InputFile(path: path).readAll(atMost: maxSecretBytes)
        } catch {
            throw FleetTripsError(code: .unreadableInput, message: "\(option): \(error.message)")
        }
        guard contents.count <= maxSecretBytes else {
            throw FleetTripsError(
                code: .unreadableInput, message: "\(option) '\(path)' holds more than \(maxSecretBytes) bytes")
        }
        let secret = TokenSource.token(trimming: contents)
        guard !secret.isEmpty else {
            throw FleetTripsError(code: .unreadableInput, message: "\(option) '\(path)' holds no secret")
        }
        return secret
    }

    /// The PEM text of `argument`: itself when it is PEM text, else the file it names.
    static func pem(_ argument: String, option: String) throws(FleetTripsError) -> String {
        if argument.hasPrefix("-----BEGIN") { return argument }
        guard let data = FileManager.default.contents(atPath: argument) else {
            throw FleetTripsError(code: .unreadableInput, message: "\(option): cannot read \(argument)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
