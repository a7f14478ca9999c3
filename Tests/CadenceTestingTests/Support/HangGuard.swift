import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that waits in real time: a guard against a hang, not a measure of speed.
    ///
    /// Under `swift test` on Linux a test that suspends resumes only after every job the parallel run queued before
    /// it — the cooperative pool takes jobs of one priority first in, first out — so an asynchronous test can take
    /// most of the whole run's time without anything being wrong with it: 80 seconds on a loaded CI machine, where a
    /// limit of a minute failed three such tests. Ten minutes ends a real hang long before CI's limit does, and is
    /// far beyond what the suite takes.
    static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
