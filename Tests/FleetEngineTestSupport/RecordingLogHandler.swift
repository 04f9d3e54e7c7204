public import Logging
import Synchronization

/// A log handler that keeps every record, for tests that check what a library logs and at which
/// level. It logs everything unless its `logLevel` is raised.
public struct RecordingLogHandler: LogHandler {
    /// The records, in the order they were logged.
    public final class Records: Sendable {
        /// One record.
        public struct Entry: Sendable {
            /// Its level.
            public var level: Logger.Level
            /// Its message, without metadata.
            public var message: String
            /// The handler's metadata and the record's, each value as text.
            public var metadata: [String: String]
            /// The message followed by the metadata, for looking for a text anywhere in a record.
            public var text: String
        }

        private let store = Mutex<[Entry]>([])
        private let arrivals = AsyncStream.makeStream(of: Entry.self)

        /// No records yet.
        public init() {}

        /// Every record so far.
        public var all: [Entry] { store.withLock { $0 } }

        /// Waits for the first record, from the start, that `isWanted`; nil when the task is
        /// cancelled first. One waiter at a time.
        public func first(where isWanted: (Entry) -> Bool) async -> Entry? {
            for await entry in arrivals.stream where isWanted(entry) { return entry }
            return nil
        }

        fileprivate func append(_ entry: Entry) {
            store.withLock { $0.append(entry) }
            arrivals.continuation.yield(entry)
        }
    }

    /// Where the records go.
    public let records: Records
    /// The handler's metadata, merged into every record.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level kept.
    public var logLevel: Logger.Level = .trace

    /// A handler keeping its records in `records`.
    public init(records: Records) {
        self.records = records
    }

    /// The handler's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the record.
    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        records.append(
            Records.Entry(
                level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" },
                text: "\(event.message) \(merged)"))
    }
}
