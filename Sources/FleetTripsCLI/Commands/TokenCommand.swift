import ArgumentParser
import FleetEngineAuth
import FleetTripsInput

/// `fleettrips token`: mints a Fleet Engine token, with a service account's key for Fleet Engine
/// itself, or with a key the emulator holds.
struct TokenCommand: AsyncParsableCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a Fleet Engine JWT: a server token, a consumer token for one trip, or a driver token for one "
            + "vehicle.",
        discussion: """
            With --service-account, sign as Fleet Engine expects: RS256 with the key file's private key, kid its \
            private_key_id, iss and sub its client_email, for at most an hour. For the emulator, sign with the \
            secret it verifies (--jwt-secret-file, or --jwt-secret) or with the RSA private key whose public key \
            it holds (--jwt-private-key). Prints the token and a newline, e.g.:
              fleettrips token --service-account key.json --trip-id trip-1
              fleettrips serve --jwt-secret-file secret.txt &
              fleettrips token --jwt-secret-file secret.txt --server
            """
    )

    /// The trip of a consumer token.
    @Option(help: "Mint a consumer token for this trip id (it may read that trip only).")
    var tripID: String?

    /// The vehicle of a driver token.
    @Option(help: "Mint a driver token for this vehicle id (vehicleid; it names no trip).")
    var vehicleID: String?

    /// A server token.
    @Flag(help: "Mint a server token (tripid and vehicleid \"*\"): every method, every trip.")
    var server = false

    /// A service account key file.
    @Option(
        help: ArgumentHelp(
            "Sign RS256 with this service account key file (JSON), as Fleet Engine expects.", valueName: "path"))
    var serviceAccount: String?

    /// HS256 secret.
    @Option(
        help: ArgumentHelp(
            "Sign HS256 with this secret (other users may see it in the process list; prefer --jwt-secret-file).",
            valueName: "secret"))
    var jwtSecret: String?

    /// A file that holds the HS256 secret.
    @Option(
        help: ArgumentHelp(
            "Sign HS256 with the secret in this file, trimmed of the whitespace around it.", valueName: "path"))
    var jwtSecretFile: String?

    /// RS256 private key.
    @Option(
        help: ArgumentHelp(
            "Sign RS256 with this RSA private key: a PEM file, or the PEM text (other users may see text in the "
                + "process list; prefer a file).",
            valueName: "path"))
    var jwtPrivateKey: String?

    /// The key id.
    @Option(help: "The key id (kid) to put in the token's header (not with --service-account).")
    var kid: String?

    /// Lifetime in seconds.
    @Option(help: "Seconds until the token expires: at most 3600 with --service-account.")
    var lifetime = 3600

    /// The longest `--lifetime`: ten years, in seconds.
    static let longestLifetime = 10 * 366 * 86_400

    /// Issuer and subject.
    @Option(help: "The token's issuer and subject (not with --service-account), fleettrips@localhost by default.")
    var issuer: String?

    /// Audience.
    @Option(help: "The token's audience (not with --service-account), Fleet Engine's by default.")
    var audience: String?

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    func validate() throws {
        guard [tripID != nil, vehicleID != nil, server].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --trip-id, --vehicle-id and --server")
        }
        let keys = [serviceAccount != nil, jwtSecret != nil, jwtSecretFile != nil, jwtPrivateKey != nil]
        guard keys.filter({ $0 }).count == 1 else {
            throw ValidationError(
                "give exactly one of --service-account, --jwt-secret, --jwt-secret-file and --jwt-private-key")
        }
        if jwtSecretFile?.isEmpty == true { throw ValidationError("--jwt-secret-file needs a path") }
        guard (1...TokenCommand.longestLifetime).contains(lifetime) else {
            throw ValidationError("--lifetime must be from 1 to \(TokenCommand.longestLifetime) seconds (10 years)")
        }
        if let tripID, tripID.isEmpty || tripID == TokenRole.wildcard {
            throw ValidationError("--trip-id must name one trip; use --server for every trip")
        }
        if let vehicleID, vehicleID.isEmpty || vehicleID == TokenRole.wildcard {
            throw ValidationError("--vehicle-id must name one vehicle; use --server for every vehicle")
        }
        if serviceAccount != nil {
            let maximum = TokenMinter.fleetEngineMaximumLifetime.components.seconds
            guard lifetime <= maximum else {
                throw ValidationError("--lifetime must be at most \(maximum) seconds with --service-account")
            }
            let chosen = [("--kid", kid), ("--issuer", issuer), ("--audience", audience)].filter { $0.1 != nil }
            if let option = chosen.first?.0 {
                throw ValidationError("\(option) does not go with --service-account: the key file decides it")
            }
        }
        if serviceAccount?.isEmpty == true { throw ValidationError("--service-account needs a path") }
    }

    /// The role the arguments ask for.
    var role: TokenRole {
        if let tripID { return .consumer(tripID: tripID) }
        if let vehicleID { return .driver(vehicleID: vehicleID) }
        return .server
    }

    /// The minter the arguments ask for.
    func minter() throws -> TokenMinter {
        if let serviceAccount {
            do throws(ServiceAccountKeyError) {
                let key = try ServiceAccountKey(contentsOfFile: serviceAccount)
                return TokenMinter(serviceAccount: key, lifetime: .seconds(lifetime))
            } catch {
                throw FleetTripsError(code: .unreadableInput, message: "--service-account: \(error.message)")
            }
        }
        let key: JWTSigningKey
        if let jwtSecret {
            key = try .hs256(secret: jwtSecret, id: kid)
        } else if let jwtSecretFile {
            key = try .hs256(
                secret: try KeyMaterial.secret(inFile: jwtSecretFile, option: "--jwt-secret-file"), id: kid)
        } else {
            key = try .rs256(
                privateKeyPEM: try KeyMaterial.pem(jwtPrivateKey ?? "", option: "--jwt-private-key"), id: kid)
        }
        let principal = issuer ?? TokenMinter.defaultPrincipal
        return TokenMinter(
            signingKey: key, issuer: principal, subject: principal,
            audience: audience ?? TokenVerifier.fleetEngineAudience, lifetime: .seconds(lifetime))
    }

    /// The token the arguments ask for.
    func token() throws -> String {
        try minter().mint(role)
    }

    /// Prints the token.
    func run() async throws {
        var output = StandardOutput()
        try output.write(Array((try token() + "\n").utf8))
    }
}
