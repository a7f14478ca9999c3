/// Steele, Lea and Flood's SplitMix64: a small generator whose whole state is one `UInt64`, the same on every
/// platform, so a seed names the same choices everywhere.
package struct SplitMix64: Equatable, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`, each equally likely (draws that would favour the low numbers are drawn again); 0
    /// for a bound of 1 or 0, drawing nothing.
    package mutating func next(below bound: UInt64) -> UInt64 {
        guard bound > 1 else { return 0 }
        // 2^64 mod bound: the draws below it are the ones that would make the low remainders more likely.
        let threshold = (0 &- bound) % bound
        while true {
            let draw = next()
            if draw >= threshold { return draw % bound }
        }
    }
}
