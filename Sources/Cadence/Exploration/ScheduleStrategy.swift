/// How an exploring run chooses at each point where lanes meet.
package enum ScheduleStrategy: Equatable, Sendable {
    /// Always the first candidate: today's first-in first-out order.
    case firstInFirstOut
    /// The n-th choice point takes candidate `choices[n]` (taken modulo the number of candidates); past the end of
    /// the list, the first.
    case choices([Int])
    /// Each choice uniformly at random, from a generator seeded with `seed`: the same seed, the same choices.
    case uniform(seed: UInt64)
}
