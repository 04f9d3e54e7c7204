import FleetEngineStatus
import FleetEngineWire
import NIOCore
import NIOHPACK
import NIOHTTP2

/// What one attempt of a unary call came to, as the connection saw it.
enum CallAttemptOutcome: Sendable {
    /// The call ended with a status: the response message (there is one when a unary call
    /// succeeded), the status, and the server's retry pushback from the trailers, if it sent one.
    case ended(payload: [UInt8]?, status: CallStatus, pushback: GRPCRetryPushback)

    /// The call failed without a status from the server: a connection failure, a local deadline, a
    /// cancellation. The error says whether the request may have been processed.
    case failed(FleetEngineError)
}

/// The request of one attempt: its header block, the framed message (built once per call and
/// reused by every attempt) and its bearer token.
struct CallRequest: Sendable {
    var headers: HPACKHeaders
    var body: ByteBuffer
    var maxResponseSize: Int
    /// The `authorization` value from the token provider (`Bearer <token>`), which is not in
    /// `headers`: the connection adds it last, in the HPACK representation that its own past
    /// requests make the better one (``CallTable``).
    var authorization: String?
}

/// One attempt of a unary call on a connection: its request, the Wire layer's reader of its
/// response, and the caller waiting for the outcome.
///
/// Made by the calling task and handed to the connection's ``CallTable``; from then on every
/// property is read and written on the connection's event loop only, which is what makes the
/// `@unchecked Sendable` sound. The waiting caller is resumed exactly once, by ``complete(_:)``.
final class CallAttempt: @unchecked Sendable {
    let request: CallRequest
    let deadline: NIODeadline
    var reader: GRPCResponseReader
    /// The response message, once it has arrived.
    var payload: [UInt8]?
    /// The stream carrying the attempt, once it has one.
    var streamID: HTTP2StreamID?
    /// Whether the request went out on the connection: its stream was opened. A stream held back
    /// by the server's `SETTINGS_MAX_CONCURRENT_STREAMS` is opened only when its turn comes.
    var requestWritten = false
    /// Whether the server ended or reset the stream, so that no RST_STREAM is owed on completion.
    var streamEndedByServer = false
    /// A cancellation (or deadline) that came before the attempt reached the event loop.
    var pendingFailure: FleetEngineError?
    private var continuation: UnsafeContinuation<CallAttemptOutcome, Never>?
    private(set) var isCompleted = false

    init(request: CallRequest, deadline: NIODeadline) {
        self.request = request
        self.deadline = deadline
        self.reader = GRPCResponseReader(maxMessageSize: request.maxResponseSize)
    }

    /// Called on the event loop when the attempt arrives there with its waiting caller.
    func attach(_ continuation: UnsafeContinuation<CallAttemptOutcome, Never>) {
        self.continuation = continuation
    }

    /// Resumes the caller with `outcome`, once; later outcomes are ignored.
    func complete(_ outcome: CallAttemptOutcome) {
        guard !isCompleted, let continuation else { return }
        isCompleted = true
        self.continuation = nil
        continuation.resume(returning: outcome)
    }
}
