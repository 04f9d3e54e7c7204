/// A small, fast pseudo-random generator whose whole state is one 64-bit word, so a simulation is
/// the same on every machine and every run for the same seed.
///
/// The algorithm is Steele, Lea and Flood's SplitMix64 ("Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a Weyl sequence with the golden-ratio increment, finished by a
/// variant of the MurmurHash3 mixer. It is not for cryptography; it is for reproducible test data.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's whole state; the next output is derived from it.
    public private(set) var state: UInt64

    /// A generator that starts from `seed`; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A generator for one part of a larger seeded whole (a trip, a leg, a tick), so that adding a
    /// part never shifts the numbers another part draws.
    static func derived(from seed: UInt64, _ parts: UInt64...) -> SplitMix64 {
        var generator = SplitMix64(seed: seed)
        for part in parts {
            generator = SplitMix64(seed: generator.next() ^ part)
        }
        return generator
    }

    /// A uniformly distributed value in `range`, from the top 53 bits so every value is exact.
    mutating func unit(in range: ClosedRange<Double>) -> Double {
        let fraction = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + (range.upperBound - range.lowerBound) * fraction
    }

    /// A uniformly distributed integer in `range`, by the multiply-and-shift method (Lemire, 2019) without
    /// the rejection step: the bias is below 2^-32 for the small ranges a simulation draws from, and
    /// unlike `Int.random(in:using:)` the mapping is ours, so no toolchain change can alter a seed's trips.
    mutating func integer(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) &+ 1
        guard width != 0 else { return Int(truncatingIfNeeded: next()) }
        let scaled = next().multipliedFullWidth(by: width).high
        return range.lowerBound + Int(scaled)
    }

    /// Whether an event of probability `probability` happens.
    mutating func chance(_ probability: Double) -> Bool {
        unit(in: 0...1) < probability
    }
}
