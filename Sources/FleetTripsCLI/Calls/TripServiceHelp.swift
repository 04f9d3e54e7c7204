/// Help text the client commands share.
enum TripServiceHelp {
    /// What the client commands print, and what they do on failure.
    static let failureContract = """
        Connects to --endpoint (Fleet Engine by default; e.g. --endpoint 127.0.0.1:50051 --plaintext for \
        `fleettrips serve`). On success the output is proto3 JSON on standard output and the exit status is 0. \
        When the call fails the exit status is 1 and standard error gets the error: its code, message, what to do \
        and its google.rpc details, or with --json one JSON object on one line with "code" (the gRPC status \
        number), "name" (e.g. NOT_FOUND), "family", "message", "details" (each as proto3 JSON of a \
        google.protobuf.Any), "origin" and the fields of `fleettrips status --json`. Usage errors exit with 64. \
        A trip holding fields the schema does not define, which proto3 JSON cannot show, gets a "note:" line \
        on standard error saying which and where.
        """
}
