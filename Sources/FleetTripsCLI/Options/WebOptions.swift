import ArgumentParser
import FleetEngineClient
import Foundation
import JourneySharing

/// `--web` and what goes with it: where `follow` and `demo` serve their trips' pages, and to whom.
struct WebOptions: ParsableArguments, Sendable {
    /// Where to listen, when the pages are served at all.
    @Option(
        help: ArgumentHelp(
            "Serve live pages of the trips (a list, and a map per trip) at [HOST:]PORT instead of printing events, "
                + "until interrupted. HOST is 127.0.0.1 when left out; PORT 0 picks a free one. The URLs are "
                + "printed on standard error.",
            valueName: "[host:]port"))
    var web: String?

    /// A tile URL template for the map.
    @Option(
        help: ArgumentHelp(
            "With --web, draw map tiles from this URL template ({z}, {x} and {y}) under the trips; without it the "
                + "page draws the trips alone and loads nothing from elsewhere.",
            valueName: "template"))
    var tiles: String?

    /// The secret share links are signed with.
    @Option(
        help: ArgumentHelp(
            "With --web, print a share link per trip, signed with the secret in this file (at least 32 bytes; "
                + "trailing white space is not part of it): anyone with a link sees that trip's page, from any "
                + "address, until the link expires.",
            valueName: "path"))
    var shareSecretFile: String?

    /// How long share links last.
    @Option(help: ArgumentHelp("How long share links stay valid.", valueName: "seconds"))
    var shareExpiry = 3600.0

    /// Serve the list and trip pages to any address.
    @Flag(
        help: ArgumentHelp(
            "With --web, serve the list and the trip pages to any address; by default only this machine (loopback) "
                + "sees them, and others need a share link."))
    var allowRemote = false

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    /// Refuses a malformed address, options that need `--web` without it, and an expiry that is not
    /// a positive number of seconds.
    func validate() throws {
        guard web != nil else {
            let given = [
                ("--tiles", tiles != nil), ("--share-secret-file", shareSecretFile != nil),
                ("--allow-remote", allowRemote),
            ].filter(\.1).map(\.0)
            if let first = given.first { throw ValidationError("\(first) needs --web") }
            return
        }
        _ = try address()
        guard shareExpiry > 0, shareExpiry.isFinite, shareExpiry <= 366 * 86_400 else {
            throw ValidationError("--share-expiry must be a positive number of seconds, at most a year")
        }
        if let tiles {
            guard ["{z}", "{x}", "{y}"].allSatisfy(tiles.contains),
                tiles.hasPrefix("https://") || tiles.hasPrefix("http://")
            else {
                throw ValidationError("--tiles must be an http(s) URL with {z}, {x} and {y} in it (not '\(tiles)')")
            }
            let host = tiles.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).first ?? ""
            guard !host.isEmpty, !host.contains("{") else {
                throw ValidationError(
                    "--tiles '\(tiles)': the host must be written out (no {s} or other placeholder in it), so that "
                        + "the page may load images from it and from nowhere else")
            }
        }
    }

    /// The host and port `--web` names; nil without `--web`.
    func address() throws(ValidationError) -> (host: String, port: Int)? {
        guard let web else { return nil }
        if !web.isEmpty, web.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard let port = Int(web), port <= 65535 else {
                throw ValidationError("--web '\(web)': the port must be 0 to 65535")
            }
            return ("127.0.0.1", port)
        }
        let separator =
            web.hasPrefix("[") ? web.range(of: "]:")?.upperBound : web.lastIndex(of: ":").map(web.index(after:))
        guard let separator else {
            throw ValidationError("--web '\(web)' has no port; give [host:]port, e.g. 127.0.0.1:8080")
        }
        let portText = web[separator...]
        guard !portText.isEmpty, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let port = Int(portText),
            port <= 65535
        else {
            throw ValidationError("--web '\(web)': the port must be 0 to 65535")
        }
        // The host is checked as --endpoint's is, with a port it takes (it refuses 0), and the
        // errors name what was given.
        let checked = String(web[..<separator]) + "1"
        do {
            let endpoint = try ClientConfiguration.Endpoint.parsingArgument(checked, option: "--web")
            return (endpoint.host, port)
        } catch {
            throw ValidationError(error.message.replacing("'\(checked)'", with: "'\(web)'"))
        }
    }

    /// The pages' options: the tiles, who may look, and the share-link signer.
    ///
    /// - Throws: a `ValidationError` naming `--share-secret-file` when it cannot be read or is too
    ///   short; the secret itself is never shown.
    func pagesOptions() throws -> TripPagesOptions {
        var options = TripPagesOptions(tileURLTemplate: tiles, servesRemoteViewers: allowRemote)
        if let shareSecretFile {
            let contents: Data
            do {
                contents = try Data(contentsOf: URL(fileURLWithPath: shareSecretFile))
            } catch {
                throw ValidationError("--share-secret-file \(shareSecretFile) cannot be read")
            }
            var secret = Array(contents)
            while let last = secret.last, last == 0x20 || (0x09...0x0d).contains(last) { secret.removeLast() }
            do {
                options.shareLinks = try ShareLinkSigner(secret: secret)
            } catch {
                throw ValidationError("--share-secret-file \(shareSecretFile): \(error.message)")
            }
        }
        return options
    }
}
