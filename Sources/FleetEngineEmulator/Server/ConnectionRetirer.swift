import NIOCore

/// Retires each connection once it has been open for ``FaultPlan/goAwayAfter`` (gRPC's max
/// connection age): it asks the transport to quiesce the connection, which sends GOAWAY and lets the
/// calls in flight finish, and closes the connection if they have not within
/// ``FaultPlan/goAwayGraceTime``.
///
/// The plan is read as the connection ages, not once at its start, so a plan set while the emulator
/// runs turns GOAWAY on, off, or to another age within a second. (grpc-swift-nio-transport's own
/// `maxAge` is fixed when the server starts.)
final class ConnectionRetirer: Sendable {
    private let plan: @Sendable () -> FaultPlan
    /// The longest a connection waits before it looks at the plan again.
    static let recheck: TimeAmount = .seconds(1)

    init(plan: @escaping @Sendable () -> FaultPlan) {
        self.plan = plan
    }

    /// Called by the transport for each new connection.
    func connectionAccepted(_ connection: any Channel) -> EventLoopFuture<Void> {
        // The event loop's clock: real time, or an embedded loop's own in tests.
        let opened = connection.eventLoop.now
        scheduleCheck(connection, opened: opened)
        return connection.eventLoop.makeSucceededVoidFuture()
    }

    private func scheduleCheck(_ connection: any Channel, opened: NIODeadline) {
        var next = connection.eventLoop.now + Self.recheck
        if let age = plan().goAwayAfter {
            next = min(next, opened + TimeAmount(age))
        }
        connection.eventLoop.scheduleTask(deadline: next) {
            self.check(connection, opened: opened)
        }
    }

    private func check(_ connection: any Channel, opened: NIODeadline) {
        guard connection.isActive else { return }
        let plan = plan()
        guard let age = plan.goAwayAfter, connection.eventLoop.now >= opened + TimeAmount(age) else {
            scheduleCheck(connection, opened: opened)
            return
        }
        connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        connection.eventLoop.scheduleTask(in: TimeAmount(plan.goAwayGraceTime)) {
            connection.close(promise: nil)
        }
    }
}
