import CadenceSupport

/// Makes the choices of one exploring run and keeps their log. A leaf: it calls nothing while it holds its lock, so
/// the clock may ask it under its own.
package final class ScheduleChooser: Sendable {
    fileprivate struct State {
        var generator: SplitMix64?
        var log: [ScheduleChoice] = []
        /// Under PCT: each lane's priority, drawn when it is first a candidate; the choice points (indices into the
        /// log) where the lane about to go drops to the lowest priority yet, each lower than the one before.
        var priorities: [ScheduleLane: Int64] = [:]
        var changePoints: Set<Int> = []
        var lowered: Int64 = 0
    }

    package let strategy: ScheduleStrategy
    private let state: Locked<State>

    package init(_ strategy: ScheduleStrategy) {
        self.strategy = strategy
        var initial = State()
        switch strategy {
        case .uniform(let seed):
            initial.generator = SplitMix64(seed: seed)
        case .pct(let seed, let depth, let steps):
            var generator = SplitMix64(seed: seed)
            // depth - 1 distinct points among the first `steps` choices (all of them when there are fewer).
            let wanted = min(max(depth - 1, 0), max(steps, 0))
            while initial.changePoints.count < wanted {
                initial.changePoints.insert(Int(generator.next(below: UInt64(steps))))
            }
            initial.generator = generator
        case .firstInFirstOut, .choices:
            break
        }
        state = Locked(initial)
    }

    /// Chooses which of `candidates` (two or more lanes, in first-in first-out order) goes first, logs it, and
    /// returns its index.
    package func choose(_ kind: ScheduleChoice.Kind, tick: Int64, among candidates: [ScheduleLane]) -> Int {
        state.withLock { state in
            let chosen: Int
            switch strategy {
            case .firstInFirstOut:
                chosen = 0
            case .choices(let choices):
                let index = state.log.count
                chosen = index < choices.count ? abs(choices[index] % candidates.count) : 0
            case .uniform:
                chosen = Int(state.generator!.next(below: UInt64(candidates.count)))
            case .pct:
                chosen = state.prioritized(candidates, at: state.log.count)
            }
            state.log.append(ScheduleChoice(kind: kind, tick: tick, candidates: candidates, chosen: chosen))
            return chosen
        }
    }

    /// Every choice made so far, in order.
    package var log: [ScheduleChoice] { state.withLock { $0.log } }

    /// The choices that differed from first-in first-out order.
    package var deviations: [ScheduleChoice] { log.filter { $0.chosen != 0 } }
}

extension ScheduleChooser.State {
    /// PCT's choice among `candidates` at choice point `index`: the lane with the highest priority, after lowering
    /// it below every other lane when `index` is a change point.
    fileprivate mutating func prioritized(_ candidates: [ScheduleLane], at index: Int) -> Int {
        for lane in candidates where priorities[lane] == nil {
            // Random priorities, drawn as lanes appear, order the lanes as a random permutation would; they stay
            // above the lowered ones (0 and below).
            priorities[lane] = Int64(generator!.next() >> 2) + 1
        }
        var best = highest(candidates)
        if changePoints.contains(index) {
            lowered -= 1
            priorities[candidates[best]] = lowered
            best = highest(candidates)
        }
        return best
    }

    private func highest(_ candidates: [ScheduleLane]) -> Int {
        candidates.indices.max { priorities[candidates[$0]]! < priorities[candidates[$1]]! }!
    }
}
