import CadenceSupport

/// Makes the choices of one exploring run and keeps their log. A leaf: it calls nothing while it holds its lock, so
/// the clock may ask it under its own.
package final class ScheduleChooser: Sendable {
    private struct State {
        var generator: SplitMix64?
        var log: [ScheduleChoice] = []
    }

    package let strategy: ScheduleStrategy
    private let state: Locked<State>

    package init(_ strategy: ScheduleStrategy) {
        self.strategy = strategy
        if case .uniform(let seed) = strategy {
            state = Locked(State(generator: SplitMix64(seed: seed)))
        } else {
            state = Locked(State())
        }
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
