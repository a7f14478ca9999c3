/// How an exploring run chooses at each point where lanes meet.
package enum ScheduleStrategy: Equatable, Sendable {
    /// Always the first candidate: today's first-in first-out order.
    case firstInFirstOut
    /// The n-th choice point takes candidate `choices[n]` (taken modulo the number of candidates); past the end of
    /// the list, the first.
    case choices([Int])
    /// The choices written as one number in mixed radix, the first choice its lowest digit: each choice point with
    /// `r` candidates takes `digits % r` and goes on with `digits / r`; once the number is 0, every choice is the
    /// first. How a printed schedule (``ScheduleSeed``) replays.
    case digits(UInt64)
    /// Each choice uniformly at random, from a generator seeded with `seed`: the same seed, the same choices.
    case uniform(seed: UInt64)
    /// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010): each lane
    /// gets a random priority when it first has work, the lane with the highest priority goes first, and at
    /// `depth - 1` choice points drawn among the first `steps` the lane about to go drops below every other. A
    /// bug that needs `depth` orderings to line up is found in one run with a chance of at least
    /// 1 / (lanes × steps^(depth - 1)) — most order bugs need one or two. Seeded: the same seed, the same choices.
    case pct(seed: UInt64, depth: Int, steps: Int)
}
