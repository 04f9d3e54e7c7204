package import FleetEngineCodec

/// One write the emulator's journal (`DIR/trips.journal`) holds, replayed in order at start.
package enum JournalEntry: Sendable {
    /// A trip as stored, and when it last changed (nil from a journal written before that was
    /// kept).
    case put(Trip, updated: Timestamp?)
    /// A deletion, by the trip's name.
    case delete(String)
    /// A billing report.
    case billing(ReportBillableTripRequest)
}
