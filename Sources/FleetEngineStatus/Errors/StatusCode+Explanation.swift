extension StatusCode {
    /// A one-line statement of what happened, in the words of someone following a trip.
    public var summary: String {
        switch effective {
        case .ok: "The call succeeded."
        case .cancelled: "The call was cancelled before Fleet Engine answered."
        case .invalidArgument: "Fleet Engine rejected the request as malformed."
        case .deadlineExceeded: "Fleet Engine did not answer before the call's deadline."
        case .notFound: "Fleet Engine has no such trip."
        case .alreadyExists: "A trip with this id already exists."
        case .permissionDenied: "The caller is not allowed to do this with this trip."
        case .resourceExhausted: "The project's Fleet Engine quota or rate limit is used up."
        case .failedPrecondition: "The trip is not in a state that allows this request."
        case .aborted: "Fleet Engine stopped answering part way through."
        case .outOfRange: "A value in the request is outside the range Fleet Engine accepts."
        case .unimplemented: "The service that answered does not implement this method."
        case .internalError: "Fleet Engine, or the connection to it, failed internally."
        case .unavailable: "Fleet Engine could not be reached."
        case .dataLoss: "Data was lost or corrupted on the way."
        case .unauthenticated: "Fleet Engine could not authenticate the caller."
        default: "The call failed for a reason the service did not classify."
        }
    }

    /// Why it happens when following a trip: the usual causes, as the Consumer SDK's error model
    /// lists them for the codes it names.
    public var meaning: String {
        switch effective {
        case .ok:
            "Nothing failed."
        case .cancelled:
            "The outgoing call was ended on this side: following stopped, the service is shutting down, or the task "
                + "that made the call was cancelled."
        case .invalidArgument:
            "Usually a malformed trip name; it must read providers/{provider_id}/trips/{trip_id}. A bad field mask or "
                + "an out-of-place field in an update also gives this."
        case .deadlineExceeded:
            "The server took longer than the call's deadline. This happens most when the deadline is shorter than "
                + "the method's default and the server is slow."
        case .notFound:
            "The trip was never created, was deleted, or belongs to another provider."
        case .alreadyExists:
            "CreateTrip was called with a trip id that is already in use for this provider."
        case .permissionDenied:
            "A consumer token was used for a write, the token was signed for another trip id, the token is missing "
                + "or invalid, or Fleet Engine is not enabled for the project."
        case .resourceExhausted:
            "The project's quota is zero, or requests arrive faster than its rate limit allows."
        case .failedPrecondition:
            "The request needs the trip (or its vehicle) in another state, for example an update to a trip that has "
                + "already ended."
        case .aborted:
            "The server gave up on the response, usually a problem on the server's side or a conflict with a "
                + "concurrent change."
        case .outOfRange:
            "A number, a page token or a position in the request lies outside what the server accepts."
        case .unimplemented:
            "The endpoint is not Fleet Engine's TripService, or a proxy on the way answered 404."
        case .internalError:
            "An invariant broke on the server, or the HTTP/2 stream was reset or ended without a gRPC status."
        case .unavailable:
            "The service is down or overloaded, or the network between here and Fleet Engine failed; usually "
                + "transient."
        case .dataLoss:
            "The response was corrupted beyond use."
        case .unauthenticated:
            "The token is invalid: it expired, its signature does not verify, or it was signed without a trip id."
        default:
            "The server sent a status this library does not know, or one without a more precise code."
        }
    }

    /// What the caller should do about it.
    public var recoverySuggestion: String {
        switch effective {
        case .ok:
            "Nothing."
        case .cancelled:
            "Nothing, if the cancellation was intended; the next refresh of a followed trip starts a new call."
        case .invalidArgument:
            "Check the trip name (providers/{provider_id}/trips/{trip_id}) and the request's fields, then send a "
                + "corrected request; sending it again unchanged fails again."
        case .deadlineExceeded:
            "Nothing: the library retries. If it keeps happening, give the call a longer deadline."
        case .notFound:
            "Check the trip id and provider id, and that the trip was created; stop following a trip that is gone."
        case .alreadyExists:
            "Use the existing trip (GetTrip), or create the new one under another trip id."
        case .permissionDenied:
            "Check that the token provider returns a token for this trip id with the right role, and that Fleet "
                + "Engine is enabled for the project."
        case .resourceExhausted:
            "Slow down: wait for the delay the server asked for (RetryInfo) before calling again, and check the "
                + "project's quota in the Cloud console."
        case .failedPrecondition:
            "Fetch the trip's current state and send a request that fits it."
        case .aborted:
            "Nothing: the library retries."
        case .outOfRange:
            "Correct the value, or stop paging: the end was reached."
        case .unimplemented:
            "Check the endpoint the client is configured with."
        case .internalError:
            "Retry later; report it if it persists."
        case .unavailable:
            "Nothing: the library retries with backoff and the next refresh tries again."
        case .dataLoss:
            "Retry later; report it if it persists."
        case .unauthenticated:
            "Have the token provider mint a fresh token that carries the trip id; the library asks it again once "
                + "by itself."
        default:
            "Retry later; report it if it persists."
        }
    }
}
