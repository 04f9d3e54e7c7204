import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One emulator's hold on its data folder, so that a second emulator on the same folder is refused:
/// its compaction would rename a new journal over the one the first still appends to, and every
/// write the first acknowledged after that would be lost.
///
/// Two locks, because no one lock does both jobs without a hole. Within the process, a set of the
/// folders held (by their resolved path). Between processes, a POSIX record lock (`fcntl`
/// `F_SETLK`) on `trips.lock` in the folder. A record lock belongs to the process, not to the
/// descriptor, so a child process never inherits it. An `flock` would be inherited, for the moment
/// between a `fork` and its `exec` at least: any process this one starts in that moment, for
/// whatever reason, would keep the folder locked against the next emulator. The price of record
/// locks, that closing any descriptor of the file drops them, is paid nowhere: only this type opens
/// the lock file, once per folder in a process, as the set sees to.
final class DataFolderLock: Sendable {
    /// The folders held in this process, by resolved path.
    private static let held = Mutex<Set<String>>([])

    private let key: String
    private let descriptor: Int32

    /// Holds `directory`, which must exist.
    ///
    /// - Throws: when another emulator, in this process or another, holds it, or it cannot be locked.
    init(directory: String) throws(EmulatorError) {
        guard let resolved = realpath(directory, nil) else {
            throw .storageFailed(errno, "cannot open \(directory)")
        }
        let key = String(cString: resolved)
        free(resolved)
        let inUse = EmulatorError(
            .dataFolderInUse, "\(directory) is in use by another emulator: a data folder serves one emulator at a time")
        guard Self.held.withLock({ $0.insert(key).inserted }) else { throw inUse }
        let path = key + "/trips.lock"
        let descriptor = openFile(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            let failure = EmulatorError.storageFailed(errno, "cannot open \(path)")
            _ = Self.held.withLock { $0.remove(key) }
            throw failure
        }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_SETLK, &lock) == 0 else {
            let held = errno == EACCES || errno == EAGAIN
            let failure = EmulatorError.storageFailed(errno, "cannot lock \(path)")
            close(descriptor)
            _ = Self.held.withLock { $0.remove(key) }
            if held { throw inUse }
            throw failure
        }
        self.key = key
        self.descriptor = descriptor
    }

    deinit {
        // Closing the descriptor drops the record lock; then the folder is free in this process too.
        close(descriptor)
        _ = Self.held.withLock { $0.remove(key) }
    }
}
