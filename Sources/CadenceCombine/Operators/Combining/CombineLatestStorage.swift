/// The subscription behind `Publishers.CombineLatest`, `CombineLatest3` and `CombineLatest4`: it keeps only the
/// latest value of each upstream, and a value that arrives while the downstream has no demand replaces the previous
/// one and produces no output (a value that arrives while another thread delivers is combined and sent as soon as
/// that delivery returns, if the downstream still has demand). It finishes when every upstream has finished; a
/// failure cancels the other upstreams.
typealias CombineLatestInner<Storage: CombineLatestStorage, Downstream: Subscriber> =
    TupleCombiningInner<Storage, Downstream> where Downstream.Input == Storage.Output

/// The latest value of each upstream of a combineLatest, typed. Each is kept in a `RingBuffer` that holds at most one
/// value, not in an optional: the subscription runs unspecialised, where every use of an `A?` would ask the runtime
/// for the metadata of `Optional<A>`.
protocol CombineLatestStorage: TupleCombiningStorage {
    /// How many upstreams are combined.
    static var arity: Int { get }
    /// Whether every upstream has produced a value.
    var isComplete: Bool { get }
    /// The tuple of the latest values; only once every upstream has produced one.
    var combined: Output { get }
    /// Whether a value has arrived since the last output was considered.
    var hasNewCombination: Bool { get set }
}

extension CombineLatestStorage {
    static var operatorName: String { "CombineLatest" }

    static var outputWaitsForDemand: Bool { false }

    static var cancelsFailingUpstream: Bool { false }

    static var requiresPositiveDemand: Bool { false }

    mutating func noteArrival() {
        hasNewCombination = true
    }

    mutating func considerOutput(hasDemand: Bool) -> Bool {
        guard hasNewCombination else { return false }
        hasNewCombination = false
        return hasDemand && isComplete
    }

    mutating func removeOutput() -> Output {
        combined
    }

    mutating func hasOutput(hasDemand: Bool) -> Bool {
        hasNewCombination
    }

    mutating func isExhausted(completed: [Bool], finishedCount: Int) -> Bool {
        finishedCount == Self.arity
    }

    var mirrorChild: Mirror.Child { ("latest", self) }
}

struct CombineLatestStorage2<A, B>: CombineLatestStorage {
    typealias Output = (A, B)

    static var arity: Int { 2 }

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var hasNewCombination = false

    var isComplete: Bool { !a.isEmpty && !b.isEmpty }

    var combined: (A, B) { (a.oldest, b.oldest) }
}

struct CombineLatestStorage3<A, B, C>: CombineLatestStorage {
    typealias Output = (A, B, C)

    static var arity: Int { 3 }

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()
    var hasNewCombination = false

    var isComplete: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty }

    var combined: (A, B, C) { (a.oldest, b.oldest, c.oldest) }
}

struct CombineLatestStorage4<A, B, C, D>: CombineLatestStorage {
    typealias Output = (A, B, C, D)

    static var arity: Int { 4 }

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()
    var d = RingBuffer<D>()
    var hasNewCombination = false

    var isComplete: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty && !d.isEmpty }

    var combined: (A, B, C, D) { (a.oldest, b.oldest, c.oldest, d.oldest) }
}
