extension HPACKHuffman {
    /// One step of the table-driven decoder: where 4 bits of input lead from a state (an inner
    /// node of the code's tree), and the symbol they complete on the way, if any.
    ///
    /// Every code has at least 5 bits, so 4 bits complete at most one symbol.
    struct Transition: Sendable {
        /// The fields packed in one word, so that a look-up is one 4-byte load: the next state's
        /// first table position (state × 16) in bits 0–11, the symbol in bits 16–23, the flags in
        /// bits 24–31.
        private var packed: UInt32

        /// Packs a transition.
        init(nextState: Int, symbol: UInt8, flags: UInt8) {
            packed = UInt32(truncatingIfNeeded: nextState << 4) & 0xFFF | UInt32(symbol) << 16 | UInt32(flags) << 24
        }

        /// The position in the table of the next state's 16 transitions; a nibble is added to it.
        var nextRow: Int { Int(packed & 0xFFF) }
        /// The symbol completed on the way, when ``flags`` has ``emits``; 0 otherwise.
        var symbol: UInt8 { UInt8(truncatingIfNeeded: packed >> 16) }
        /// What happened on the way and what the new state means, as the bits below.
        var flags: UInt8 { UInt8(truncatingIfNeeded: packed >> 24) }

        /// The 4 bits completed ``symbol``. It is bit 0, so that adding `flags & emits` to the
        /// output's count appends the symbol without a branch.
        static let emits: UInt8 = 1 << 0
        /// The string may end in the new state: it is the root, or at most 7 bits down the
        /// all-ones path that starts the EOS code (RFC 7541 section 5.2).
        static let accepting: UInt8 = 1 << 1
        /// The new state is on the all-ones path, however deep: ending there with more than 7
        /// bits is padding that is too long rather than padding that is wrong.
        static let onEndOfStringPath: UInt8 = 1 << 2
        /// The 4 bits completed the EOS symbol, which a string must not contain.
        static let failing: UInt8 = 1 << 3
    }

    /// The decoder's table: 16 transitions, one per nibble value, for each of the 256 states.
    static let transitions: [Transition] = makeTransitions()

    /// Builds the code's tree from ``codes`` and walks every 4-bit path from every inner node.
    static func makeTransitions() -> [Transition] {
        // children[2 * node + bit] is an inner node's number (the root, 0, is never a child),
        // or -(symbol + 1) for a leaf.
        var children = [0, 0]
        var depth = [0]
        var allOnes = [true]
        for symbol in 0...endOfString {
            let code = codes[symbol]
            var node = 0
            for position in stride(from: Int(codeLengths[symbol]) - 1, through: 0, by: -1) {
                let slot = 2 * node + Int((code >> UInt32(position)) & 1)
                if position == 0 {
                    children[slot] = -(symbol + 1)
                    break
                }
                if children[slot] == 0 {
                    children[slot] = depth.count
                    children += [0, 0]
                    depth.append(depth[node] + 1)
                    allOnes.append(allOnes[node] && slot & 1 == 1)
                }
                node = children[slot]
            }
        }

        var table: [Transition] = []
        table.reserveCapacity(depth.count * 16)
        for state in depth.indices {
            for nibble in 0..<16 {
                var flags: UInt8 = 0
                var symbol: UInt8 = 0
                var node = state
                for position in stride(from: 3, through: 0, by: -1) {
                    let child = children[2 * node + ((nibble >> position) & 1)]
                    if child > 0 {
                        node = child
                        continue
                    }
                    node = 0
                    if -child - 1 == endOfString {
                        flags |= Transition.failing
                        break
                    }
                    symbol = UInt8(truncatingIfNeeded: -child - 1)
                    flags |= Transition.emits
                }
                if allOnes[node] {
                    flags |= Transition.onEndOfStringPath
                    if depth[node] <= 7 { flags |= Transition.accepting }
                }
                table.append(Transition(nextState: node, symbol: symbol, flags: flags))
            }
        }
        return table
    }
}
