/// Times several implementations of one operation in alternation, batch by batch, so that all of
/// them run under the same conditions. On a shared machine the speed of a core can change by half
/// from one minute to the next; timings taken one implementation after another then compare two
/// different machines, while the ratio of alternating batches stays steady.
struct InterleavedComparison {
    /// Per-operation times of one implementation, one sample per round.
    struct Samples {
        let implementation: Implementation
        var microseconds: [Double] = []

        var median: Double { percentile(0.5) }

        func percentile(_ fraction: Double) -> Double {
            let sorted = microseconds.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count - 1)))]
        }
    }

    let operations: [MeasuredOperation]
    /// How long one batch of the slowest implementation should take.
    var batchTarget: Duration = .microseconds(500)

    /// Runs `rounds` rounds; in each, every implementation runs one batch, in an order that rotates
    /// from round to round. Returns the samples and the sum of all results (to be consumed).
    func run(rounds: Int) throws -> (samples: [Samples], consumed: Int) {
        var consumed = 0
        // A first timing of each sizes its batches to about `batchTarget`.
        var batchSizes: [Int] = []
        for operation in operations {
            var count = 0
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .milliseconds(20) {
                consumed &+= try operation.run()
                count += 1
            }
            let perOperation = (ContinuousClock.now - start) / count
            batchSizes.append(max(1, Int((batchTarget / perOperation).rounded(.up))))
        }
        var samples = operations.map { Samples(implementation: $0.implementation) }
        for round in 0..<rounds {
            for offset in 0..<operations.count {
                let index = (round + offset) % operations.count
                let operation = operations[index]
                let start = ContinuousClock.now
                for _ in 0..<batchSizes[index] {
                    consumed &+= try operation.run()
                }
                let elapsed = ContinuousClock.now - start
                samples[index].microseconds.append(microseconds(elapsed) / Double(batchSizes[index]))
            }
        }
        return (samples, consumed)
    }

    private func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
