import ArgumentParser
import FleetEngineEmulator

/// `fleettrips token`: mints a Fleet Engine token the emulator accepts.
struct TokenCommand: AsyncParsableCommand {
    /// The command's name and help text.
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a Fleet Engine JWT for the emulator: a consumer token for one trip, or a server token.",
        discussion: """
            Sign with the secret the emulator verifies (--jwt-secret) or with the RSA private key whose public \
            key it holds (--jwt-private-key). Prints the token and a newline, e.g.:
              fleettrips serve --jwt-secret s3cret &
              fleettrips token --jwt-secret s3cret --trip-id trip-1
            """
    )

    /// The trip of a consumer token.
    @Option(help: "Mint a consumer token for this trip id (it may read that trip only).")
    var tripID: String?

    /// A server token.
    @Flag(help: "Mint a server token (tripid \"*\"): every method, every trip.")
    var server = false

    /// HS256 secret.
    @Option(help: "Sign HS256 with this secret.")
    var jwtSecret: String?

    /// RS256 private key.
    @Option(help: "Sign RS256 with this RSA private key (a PEM file, or the PEM text).")
    var jwtPrivateKey: String?

    /// The key id.
    @Option(help: "The key id (kid) to put in the token's header.")
    var kid: String?

    /// Lifetime in seconds.
    @Option(help: "Seconds until the token expires.")
    var lifetime = 3600

    /// The longest `--lifetime`: ten years, in seconds.
    static let longestLifetime = 10 * 366 * 86_400

    /// Issuer and subject.
    @Option(help: "The token's issuer and subject.")
    var issuer = TokenMinter.defaultPrincipal

    /// Audience.
    @Option(help: "The token's audience.")
    var audience = TokenVerifier.fleetEngineAudience

    /// Arguments at their defaults; ArgumentParser sets them while parsing.
    init() {}

    func validate() throws {
        guard (tripID != nil) != server else { throw ValidationError("give exactly one of --trip-id and --server") }
        guard (jwtSecret != nil) != (jwtPrivateKey != nil) else {
            throw ValidationError("give exactly one of --jwt-secret and --jwt-private-key")
        }
        guard (1...TokenCommand.longestLifetime).contains(lifetime) else {
            throw ValidationError("--lifetime must be from 1 to \(TokenCommand.longestLifetime) seconds (10 years)")
        }
        if let tripID, tripID.isEmpty || tripID == "*" {
            throw ValidationError("--trip-id must name one trip; use --server for every trip")
        }
    }

    /// The token the arguments ask for.
    func token() throws -> String {
        let key: JWTSigningKey
        if let jwtSecret {
            key = try .hs256(secret: jwtSecret, id: kid)
        } else {
            key = try .rs256(
                privateKeyPEM: try KeyMaterial.pem(jwtPrivateKey ?? "", option: "--jwt-private-key"), id: kid)
        }
        let minter = TokenMinter(
            signingKey: key, issuer: issuer, subject: issuer, audience: audience, lifetime: .seconds(lifetime))
        return try minter.mint(tripID.map { .consumer(tripID: $0) } ?? .server)
    }

    /// Prints the token.
    func run() async throws {
        var output = StandardOutput()
        try output.write(Array((try token() + "\n").utf8))
    }
}
