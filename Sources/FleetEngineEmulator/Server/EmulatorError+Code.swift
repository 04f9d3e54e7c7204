extension EmulatorError {
    /// What kind of failure an ``EmulatorError`` is.
    ///
    /// A struct over a private enum so that new codes can be added without breaking anyone who
    /// switches over the ones that exist.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case invalidConfiguration
            case invalidSimulation
            case cannotListen
            case notListening
            case dataFolderInUse
            case storageFailed
            case corruptJournal
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The configuration asks for something no emulator can do: a port outside 0 to 65535, a
        /// host that resolves to no IP address, a fault plan no fault can come of.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// A trip simulation's plan cannot be driven: a point that is not on the Earth, a speed,
        /// wait or interval out of range, a reroute or traffic on a leg the trip does not have, a
        /// trip that would outlast the time a simulation can count.
        public static let invalidSimulation = Code(.invalidSimulation)
        /// The emulator could not listen where it was asked to (the port is taken, the address is
        /// not this machine's); the transport's error is the cause.
        public static let cannotListen = Code(.cannotListen)
        /// The emulator is not listening any more: it has shut down.
        public static let notListening = Code(.notListening)
        /// Another emulator, in this process or another, holds the data folder.
        public static let dataFolderInUse = Code(.dataFolderInUse)
        /// A system call on the data folder failed (opening, reading, writing, syncing, renaming or
        /// locking a file); an `IOError` with the system's error number is the cause.
        public static let storageFailed = Code(.storageFailed)
        /// The data folder's journal holds damage that dropping a torn last entry cannot explain;
        /// the emulator does not start on it, so that no acknowledged write is lost unseen.
        public static let corruptJournal = Code(.corruptJournal)

        /// The code's name, as the tool prints it.
        public var description: String {
            switch wrapped {
            case .invalidConfiguration: "invalid configuration"
            case .invalidSimulation: "invalid simulation"
            case .cannotListen: "cannot listen"
            case .notListening: "not listening"
            case .dataFolderInUse: "data folder in use"
            case .storageFailed: "storage failed"
            case .corruptJournal: "corrupt journal"
            }
        }
    }
}
