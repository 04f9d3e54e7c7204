import ArgumentParser
import FleetEngineStatus
import FleetTripsInput

/// The exit status of a client command, so that a script can branch on how a call ended without
/// reading what it printed.
///
/// It follows grpcurl: a call that ends with a gRPC status other than OK exits with 64 plus the
/// status code (65 CANCELLED … 80 UNAUTHENTICATED), which keeps the codes apart from the 1 and 2
/// that shells and tools use for their own failures. 64 alone (`EX_USAGE` of sysexits.h) is what
/// ArgumentParser exits with for a usage error, and no failed call has code 0, so 64 always means
/// a usage error: the command was refused before any call.
enum CallExitStatus {
    /// A failure of the tool's own that is not how a call ended: output that cannot be written, a
    /// received message that has no JSON form.
    static let toolFailure: Int32 = 1
    /// Arguments that the command refused before any call (ArgumentParser's `EX_USAGE`).
    static let usage: Int32 = ExitCode.validationFailure.rawValue
    /// What a failed call's status code is added to: grpcurl's `statusCodeOffset`.
    static let statusCodeOffset: Int32 = 64

    /// The status of a command whose call ended with `code`: 64 plus the code. A code gRPC does
    /// not define counts as UNKNOWN (66), as gRPC's status code document asks of receivers, which
    /// also keeps the status below 128, where shells report signals; so does OK (which a failure
    /// never carries), so that 64 stays the usage error's.
    static func failure(code: StatusCode) -> Int32 {
        let effective = code.effective == .ok ? StatusCode.unknown : code.effective
        return statusCodeOffset + Int32(effective.rawValue)
    }

    /// The exit status for an error a client command reports: ``toolFailure`` for a
    /// ``FleetTripsError`` of its own making, otherwise ``failure(code:)`` of the code it is
    /// reported with (``FleetEngineError/init(converting:)``).
    static func failure(reporting error: any Error) -> Int32 {
        if error is FleetTripsError { return toolFailure }
        return failure(code: FleetEngineError(converting: error).code)
    }

    /// The table of statuses, for the client commands' help and the README.
    static let table: String = {
        var lines = [
            "Exit status: 0 when the call succeeded; \(usage) for a usage error, refused before any call; "
                + "\(statusCodeOffset) + the gRPC status code when the call failed (as grpcurl exits); "
                + "\(toolFailure) for a failure of the tool's own (output that cannot be written, a received "
                + "message with no JSON form). A token that cannot be had fails the call with UNAUTHENTICATED, and a "
                + "code gRPC does not define counts as UNKNOWN:"
        ]
        for code in StatusCode.allKnown where code != .ok {
            lines.append("  \(failure(code: code))  \(code.name ?? "")")
        }
        return lines.joined(separator: "\n")
    }()
}
