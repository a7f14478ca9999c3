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
        /// Under ``ScheduleStrategy/digits(_:)``: the digits not taken yet.
        var digits: UInt64 = 0
        /// What each task is called in a report, by task id: by its name, else by where it first slept.
        var taskNames: [UInt64: String] = [:]
        /// What each test scheduler is called in a report, by lane: `the 2nd DispatchQueue.test`.
        var schedulerNames: [UInt32: String] = [:]
        /// How many test schedulers of each kind the run has made.
        var schedulersMade: [String: Int] = [:]
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
        case .digits(let digits):
            initial.digits = digits
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
            case .digits:
                let radix = UInt64(candidates.count)
                chosen = Int(state.digits % radix)
                state.digits /= radix
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

    /// Under ``ScheduleStrategy/digits(_:)``, the digits the run did not take: not 0 when the run came to fewer
    /// choice points, or to fewer candidates, than the run the digits were written from.
    package var leftoverDigits: UInt64 { state.withLock { $0.digits } }

    /// Notes that `task`, named `name` (`Task.name`), sleeps at `location`: a report calls the task by its name, else
    /// by where it first slept.
    package func noteSleep(of task: UInt64, named name: String?, at location: SourceCodeLocation?) {
        guard name != nil || location != nil else { return }
        state.withLock { state in
            if let name {
                state.taskNames[task] = "the task named \"\(name)\""
            } else if state.taskNames[task] == nil, let location {
                state.taskNames[task] = "the task that first slept at \(location.fileID):\(location.line)"
            }
        }
    }

    /// Notes that the run made test scheduler `lane`, written as `label` (`DispatchQueue.test`): a report calls it
    /// by the order the run made those.
    package func noteScheduler(_ lane: UInt32, label: String) {
        state.withLock { state in
            let count = state.schedulersMade[label, default: 0] + 1
            state.schedulersMade[label] = count
            state.schedulerNames[lane] = "the \(Self.ordinal(count)) \(label)"
        }
    }

    /// What each test scheduler is called in a report, by lane.
    package var schedulerNames: [UInt32: String] { state.withLock { $0.schedulerNames } }

    /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
    static func ordinal(_ number: Int) -> String {
        let suffix =
            switch (number % 10, number % 100) {
            case (_, 11...13): "th"
            case (1, _): "st"
            case (2, _): "nd"
            case (3, _): "rd"
            default: "th"
            }
        return "\(number)\(suffix)"
    }

    /// What each task that has a name or slept at a known place is called in a report, by task id.
    package var taskNames: [UInt64: String] { state.withLock { $0.taskNames } }
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
