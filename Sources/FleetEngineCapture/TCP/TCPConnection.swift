/// One TCP connection of a capture, as a ``TCPConnectionTable`` tells of it when it opens.
///
/// A connection is the traffic between two endpoints from its first segment in the capture (its
/// SYN, when the capture holds it) until it ends; the same endpoint pair can carry several
/// connections one after the other, each with its own ``id``.
public struct TCPConnection: Hashable, Sendable, CustomStringConvertible {
    /// The connection's number in the capture: 1, 2, ... in order of first appearance.
    public var id: Int
    /// The endpoint that opened the connection: the sender of a SYN without ACK when the capture
    /// holds one, else the receiver of a SYN-ACK, else nil (the capture started mid-connection).
    public var initiator: TCPEndpoint?
    /// The sender of the first segment the capture holds of this connection.
    public var firstSource: TCPEndpoint
    /// The receiver of the first segment the capture holds of this connection.
    public var firstDestination: TCPEndpoint

    /// A connection from its parts.
    public init(id: Int, initiator: TCPEndpoint?, firstSource: TCPEndpoint, firstDestination: TCPEndpoint) {
        self.id = id
        self.initiator = initiator
        self.firstSource = firstSource
        self.firstDestination = firstDestination
    }

    /// The endpoint that accepted the connection, when the initiator is known.
    public var responder: TCPEndpoint? {
        guard let initiator else { return nil }
        return initiator == firstSource ? firstDestination : firstSource
    }

    /// `#id initiator -> responder`, or `#id a <-> b` when it is not known who opened it.
    public var description: String {
        if let initiator, let responder {
            return "#\(id) \(initiator) -> \(responder)"
        }
        return "#\(id) \(firstSource) <-> \(firstDestination)"
    }
}
