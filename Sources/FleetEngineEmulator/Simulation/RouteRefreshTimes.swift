/// The moments a simulated trip's reported route is refreshed, in increasing order: each multiple of
/// the route refresh interval and each event moment, up to and including the trip's completion.
///
/// A sequence worked out as it is read, so a long trip with a short refresh interval (a year at one
/// millisecond is 31 billion moments) costs no memory; take a prefix, or copy it into an array when
/// the trip is known to be short.
public struct RouteRefreshTimes: Sequence, Sendable, Hashable {
    /// The distinct event moments in nanoseconds, increasing.
    let eventInstants: [Int64]
    /// The route refresh interval in nanoseconds, positive.
    let interval: Int64
    /// The last moment, in nanoseconds.
    let completion: Int64

    /// Walks the two increasing series together, giving a moment found in both once.
    public struct Iterator: IteratorProtocol, Sendable {
        let times: RouteRefreshTimes
        var nextMultiple: Int64 = 0
        var eventIndex = 0

        /// The next moment, or `nil` after the completion.
        public mutating func next() -> Duration? {
            // The completion is below the simulation's time limit, far from Int64's, so neither the
            // stand-in for "no more events" nor the multiple after the completion can be mistaken for a moment.
            let event = eventIndex < times.eventInstants.count ? times.eventInstants[eventIndex] : .max
            let instant = Swift.min(event, nextMultiple)
            guard instant <= times.completion else { return nil }
            if event == instant { eventIndex += 1 }
            if nextMultiple == instant { nextMultiple += times.interval }
            return SimulationTime.duration(instant)
        }
    }

    /// An iterator from the first moment, elapsed zero.
    public func makeIterator() -> Iterator {
        Iterator(times: self)
    }
}
