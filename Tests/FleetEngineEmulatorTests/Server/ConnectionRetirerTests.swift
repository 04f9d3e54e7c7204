import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import FleetEngineEmulator

/// `ConnectionRetirer` on an embedded event loop, whose clock moves only when a test moves it: when a
/// connection is quiesced (the transport then sends GOAWAY) and closed, as the plan changes.
@Suite("GOAWAY by age as the fault plan changes while a connection is open")
struct ConnectionRetirerTests {
    /// The plan the retirer reads, changed by the test.
    final class Plan: Sendable {
        private let current: Mutex<FaultPlan>
        init(goAwayAfter: Duration?, grace: Duration = .seconds(2)) {
            var plan = FaultPlan()
            plan.goAwayAfter = goAwayAfter
            plan.goAwayGraceTime = grace
            current = Mutex(plan)
        }
        var value: FaultPlan { current.withLock { $0 } }
        func set(goAwayAfter: Duration?) { current.withLock { $0.goAwayAfter = goAwayAfter } }
    }

    /// Counts the quiesce requests that reach the end of the connection's pipeline.
    final class QuiesceCounter: ChannelInboundHandler, Sendable {
        typealias InboundIn = Never
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent { count.add(1, ordering: .relaxed) }
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// An open connection on an embedded loop, handed to a retirer reading `plan`.
    static func accepted(_ plan: Plan) throws -> (EmbeddedChannel, QuiesceCounter) {
        let counter = QuiesceCounter()
        let channel = EmbeddedChannel(handler: counter)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let retirer = ConnectionRetirer(plan: { plan.value })
        try retirer.connectionAccepted(channel).wait()
        return (channel, counter)
    }

    @Test("GOAWAY from the start: quiesced at the plan's age, closed after the grace time")
    func retiredAtAge() throws {
        let (channel, quiesced) = try Self.accepted(Plan(goAwayAfter: .seconds(5)))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(4_999))
        #expect(quiesced.value == 0)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(quiesced.value == 1)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
        #expect(quiesced.value == 1)
    }

    @Test("GOAWAY turned off before the connection's age: it is never quiesced")
    func turnedOff() throws {
        let plan = Plan(goAwayAfter: .seconds(5))
        let (channel, quiesced) = try Self.accepted(plan)
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        plan.set(goAwayAfter: nil)
        channel.embeddedEventLoop.advanceTime(by: .minutes(10))
        #expect(quiesced.value == 0)
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test("GOAWAY turned on for a connection already past the age: quiesced within a second")
    func turnedOn() throws {
        let plan = Plan(goAwayAfter: nil)
        let (channel, quiesced) = try Self.accepted(plan)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        plan.set(goAwayAfter: .seconds(10))
        #expect(quiesced.value == 0)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(quiesced.value == 1)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    @Test("an age raised while a connection is open: quiesced at the new age, not the old")
    func ageRaised() throws {
        let plan = Plan(goAwayAfter: .seconds(5))
        let (channel, quiesced) = try Self.accepted(plan)
        channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        plan.set(goAwayAfter: .seconds(20))
        channel.embeddedEventLoop.advanceTime(by: .seconds(15))
        #expect(quiesced.value == 0)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(quiesced.value == 1)
        _ = try? channel.finish()
    }
}
