/// A schedule written as one `UInt64`, printed in hex, that replays it: what an exploration reports for a failing
/// run, and what `withVirtualTime(schedule:)` takes.
///
/// The top four bits say how the rest reads (1: the choices themselves, in mixed radix; 2: a uniform generator's
/// seed; 3: PCT's depth, steps and seed); the next eight are a fingerprint of the run's choice points — where they
/// came and how many candidates each had — so that a seed replayed against changed code is found out rather than
/// replaying some other schedule; the low 52 bits are the payload.
package struct ScheduleSeed: Equatable, Sendable {
    /// How the payload reads.
    package enum Format: UInt64, Sendable {
        case choices = 1
        case uniform = 2
        case pct = 3
    }

    /// How many low bits hold the payload.
    package static let payloadBits = 52
    /// The largest payload.
    package static let payloadMask: UInt64 = (1 << 52) - 1
    /// How many bits of a PCT payload hold its generator's seed; the rest hold depth − 1 (2 bits) and steps (14).
    package static let pctSeedBits = 36
    /// The most steps a PCT payload holds.
    package static let pctMaxSteps = (1 << 14) - 1
    /// The deepest PCT a payload holds.
    package static let pctMaxDepth = 4

    package let raw: UInt64

    package init(raw: UInt64) {
        self.raw = raw
    }

    /// The format, or nil for top bits this version does not print.
    package var format: Format? { Format(rawValue: raw >> 60) }
    /// The top four bits, as printed: `0x1` for the choices.
    package var formatDigit: UInt64 { raw >> 60 }
    package var fingerprint: UInt8 { UInt8(truncatingIfNeeded: raw >> 52) }
    package var payload: UInt64 { raw & Self.payloadMask }

    /// The seed printed as sixteen hex digits: `0x1A40000000000005`.
    package var hex: String { Self.hex(raw) }

    /// `value` printed as sixteen upper-case hex digits after `0x`.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The strategy that replays the seed; nil for a format this version does not print.
    package var strategy: ScheduleStrategy? {
        switch format {
        case .choices:
            return .digits(payload)
        case .uniform:
            return .uniform(seed: payload)
        case .pct:
            let depth = Int(payload >> 50) + 1
            let steps = Int((payload >> UInt64(Self.pctSeedBits)) & UInt64(Self.pctMaxSteps))
            return .pct(seed: payload & ((1 << UInt64(Self.pctSeedBits)) - 1), depth: depth, steps: steps)
        case nil:
            return nil
        }
    }

    /// The seed for the run that made `log` under `strategy`: its choices themselves when they fit in 52 bits,
    /// else the strategy's own seed — which the explorer keeps small enough to fit.
    package init(log: [ScheduleChoice], strategy: ScheduleStrategy) {
        let top = UInt64(Self.fingerprint(of: log)) << 52
        if let digits = Self.digits(of: log) {
            raw = Format.choices.rawValue << 60 | top | digits
            return
        }
        switch strategy {
        case .uniform(let seed):
            raw = Format.uniform.rawValue << 60 | top | (seed & Self.payloadMask)
        case .pct(let seed, let depth, let steps):
            let depthBits = UInt64(min(max(depth, 1), Self.pctMaxDepth) - 1) << 50
            let stepBits = UInt64(min(max(steps, 0), Self.pctMaxSteps)) << UInt64(Self.pctSeedBits)
            let seedBits = seed & ((1 << UInt64(Self.pctSeedBits)) - 1)
            raw = Format.pct.rawValue << 60 | top | depthBits | stepBits | seedBits
        case .firstInFirstOut, .choices, .digits:
            // Only the explorer's random runs make choices too many to write down, and they are uniform or PCT.
            raw = Format.choices.rawValue << 60 | top
        }
    }

    /// The choices of `log` in mixed radix, the first choice the lowest digit, up to its last choice that was not
    /// the first candidate; nil when they need more than 52 bits.
    package static func digits(of log: [ScheduleChoice]) -> UInt64? {
        guard let last = log.lastIndex(where: { $0.chosen != 0 }) else { return 0 }
        var value: UInt64 = 0
        var weight: UInt64 = 1
        for (index, choice) in log[...last].enumerated() {
            let (part, partOverflow) = weight.multipliedReportingOverflow(by: UInt64(choice.chosen))
            let (sum, sumOverflow) = value.addingReportingOverflow(part)
            guard !partOverflow, !sumOverflow, sum <= payloadMask else { return nil }
            value = sum
            if index < last {
                let (next, overflow) = weight.multipliedReportingOverflow(by: UInt64(choice.candidates.count))
                guard !overflow, next <= payloadMask else { return nil }
                weight = next
            }
        }
        return value
    }

    /// Eight bits of a hash (FNV-1a) of where each choice point of `log` came — clock or executor — and how many
    /// candidates it had.
    package static func fingerprint(of log: [ScheduleChoice]) -> UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt64) {
            hash ^= byte & 0xFF
            hash = hash &* 0x0000_0100_0000_01B3
        }
        for choice in log {
            mix(choice.kind == .clock ? 1 : 2)
            var count = UInt64(choice.candidates.count)
            repeat {
                mix(count)
                count >>= 8
            } while count > 0
        }
        var folded = hash
        folded ^= folded >> 32
        folded ^= folded >> 16
        folded ^= folded >> 8
        return UInt8(truncatingIfNeeded: folded)
    }
}
