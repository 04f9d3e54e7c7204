/// Help text the client commands share.
enum TripServiceHelp {
    /// What the client commands print, and what they do on failure.
    static let failureContract = """
        Connects to --endpoint (Fleet Engine by default; e.g. --endpoint 127.0.0.1:50051 --plaintext for \
        `fleettrips serve`). On success the output is proto3 JSON on standard output and the exit status is 0. \
        When the call fails the exit status is 64 + its gRPC status code (below) and standard error gets the \
        error: its code, message, what to do and its google.rpc details, or with --json one JSON object on one \
        line with "code" (the gRPC status number), "name" (e.g. NOT_FOUND), "family", "message", "details" (each \
        as proto3 JSON of a google.protobuf.Any), "origin" and the fields of `fleettrips status --json`. \
        A trip holding fields the schema does not define, which proto3 JSON cannot show, gets a "note:" line \
        on standard error saying which and where.
        """

    /// The exit statuses of the client commands (``CallExitStatus/table``).
    static let exitStatus = CallExitStatus.table

    /// The help that ends every client command's discussion: the exit statuses and
    /// `SSLKEYLOGFILE`.
    static let commonDiscussion = exitStatus + "\n\n" + keyLogFile

    /// How the client commands honour `SSLKEYLOGFILE`.
    static let keyLogFile = """
        SSLKEYLOGFILE: when this environment variable names a file, the secrets of each TLS connection are \
        appended to it as NSS key log lines (the format curl and browsers write for it), so that Wireshark can \
        decrypt a capture of the traffic. A new file is created readable by its owner only (mode 0600). The file \
        decrypts everything sent, bearer tokens included: set the variable only while debugging, and delete the \
        file afterwards. Ignored with --plaintext and when empty; a file that cannot be opened gets a warning on \
        standard error, and the command goes on without it.
        """
}
