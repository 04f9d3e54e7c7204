import FleetEngineCodec
import NIOCore
import Synchronization
import TripTracking

/// Records, for each "trip updated" call, whether it came on the given event loop.
final class LoopCheckingSubscriber: TripModelSubscriber {
    let eventLoop: any EventLoop
    private let recorded = Mutex<[Bool]>([])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    var onLoop: [Bool] { recorded.withLock { $0 } }

    func tripModel(_ model: TripModel, didUpdate trip: Trip, updatedPropertyFields fields: TripPropertyFields) {
        let inLoop = eventLoop.inEventLoop
        recorded.withLock { $0.append(inLoop) }
    }
}
