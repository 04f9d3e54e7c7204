/// The dynamic table of one HPACK decoding context (RFC 7541 section 2.3.2 and section 4): the
/// fields the sender chose to index, newest first, bounded in size.
struct HPACKDynamicTable: Sendable {
    /// The entries, oldest first from `oldest` on; the slots before it are evicted entries not yet
    /// dropped from the array.
    ///
    /// Appending at the back and evicting from the front makes both O(1); the evicted slots are
    /// dropped in one go once they are the larger part of the array, so each entry is moved at most
    /// about once. A nil slot is a placeholder for an entry the sender added in a block the capture
    /// lost (``insertPlaceholders(_:below:)``): it holds an index, and nothing can be read from it.
    private var storage: [HPACKField?] = []
    /// The position in `storage` of the oldest live entry.
    private var oldest = 0

    /// The sum of the entries' sizes (RFC 7541 section 4.1).
    private(set) var size = 0
    /// The maximum size, as the last dynamic table size update set it (RFC 7541 section 4.2).
    private(set) var maxSize: Int

    /// Creates an empty table with a maximum size.
    init(maxSize: Int) {
        self.maxSize = max(0, maxSize)
    }

    /// The number of entries.
    var count: Int { storage.count - oldest }

    /// The entries, newest (HPACK index 62) first, without placeholders.
    var entries: [HPACKField] { storage[oldest...].compactMap { $0 }.reversed() }

    /// The entry at a position counted from the newest, which is 0; `nil` beyond the oldest, and
    /// for a placeholder.
    func entry(at position: Int) -> HPACKField? {
        guard position >= 0, position < count else { return nil }
        return storage[storage.count - 1 - position]
    }

    /// Whether the position holds a placeholder for an entry that a lost block added.
    func isPlaceholder(at position: Int) -> Bool {
        position >= 0 && position < count && storage[storage.count - 1 - position] == nil
    }

    /// Puts `number` placeholders just older than the `position` newest entries: where the entries
    /// a lost block added sit on the sender's side, moving the older ones to higher indexes.
    /// Placeholders take no room: their sizes are unknown, and counting them as empty keeps every
    /// real entry in the table at least as long as the sender keeps it, so an entry the sender
    /// names is never missing here.
    mutating func insertPlaceholders(_ number: Int, below position: Int) {
        guard number > 0 else { return }
        let index = storage.count - max(0, min(position, count))
        storage.insert(contentsOf: [HPACKField?](repeating: nil, count: number), at: index)
    }

    /// Adds a field as the newest entry, first evicting the oldest entries until it fits (RFC 7541
    /// section 4.4).
    ///
    /// A field larger than the maximum size empties the table and is not added; that is not an
    /// error.
    mutating func insert(_ field: HPACKField) {
        let fieldSize = field.size
        guard fieldSize <= maxSize else {
            removeAll()
            return
        }
        evict(toFit: maxSize - fieldSize)
        storage.append(HPACKField(name: field.name, value: field.value, neverIndexed: false))
        size += fieldSize
    }

    /// Changes the maximum size, evicting the oldest entries until the table fits (RFC 7541
    /// section 4.3).
    mutating func setMaxSize(_ newMaxSize: Int) {
        maxSize = max(0, newMaxSize)
        evict(toFit: maxSize)
    }

    /// Evicts the oldest entries until the size is at most `limit`.
    private mutating func evict(toFit limit: Int) {
        while size > limit, oldest < storage.count {
            size -= storage[oldest]?.size ?? 0
            // Drop the evicted entry's bytes now rather than when the slot is compacted away.
            storage[oldest] = nil
            oldest += 1
        }
        if oldest == storage.count {
            removeAll()
        } else if oldest >= 32, oldest * 2 >= storage.count {
            storage.removeFirst(oldest)
            oldest = 0
        }
    }

    /// Removes every entry, keeping the storage's capacity.
    private mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        oldest = 0
        size = 0
    }
}
