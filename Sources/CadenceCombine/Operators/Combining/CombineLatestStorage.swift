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
///
/// Each storage implements the value path (`noteArrival`, `considerOutput`, `removeOutput`, `hasOutput`,
/// `isExhausted`) itself, through a `LatestCombination`, rather than take it from an extension of this protocol: there
/// it is generic over the storage, and each call from the unspecialised subscription asked the runtime for the
/// storage's conformance to this protocol (about 100 instructions a call, five calls a value).
protocol CombineLatestStorage: TupleCombiningStorage {}

extension CombineLatestStorage {
    static var operatorName: String { "CombineLatest" }

    static var outputWaitsForDemand: Bool { false }

    static var cancelsFailingUpstream: Bool { false }

    static var requiresPositiveDemand: Bool { false }

    var mirrorChild: Mirror.Child { ("latest", self) }
}

/// Whether a combineLatest has a combination to consider: a value has arrived since the last output was considered.
struct LatestCombination {
    private(set) var hasNew = false

    /// One upstream's value has been stored.
    mutating func noteArrival() {
        hasNew = true
    }

    /// Takes the combination up for consideration: whether a value has arrived since the last take. A combination
    /// taken and turned down is not considered again.
    mutating func take() -> Bool {
        guard hasNew else { return false }
        hasNew = false
        return true
    }
}

struct CombineLatestStorage2<A, B>: CombineLatestStorage {
    typealias Output = (A, B)

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var combination = LatestCombination()

    mutating func noteArrival() {
        combination.noteArrival()
    }

    mutating func considerOutput(hasDemand: Bool) -> Bool {
        combination.take() && hasDemand && !a.isEmpty && !b.isEmpty
    }

    mutating func removeOutput() -> (A, B) {
        (a.oldest, b.oldest)
    }

    mutating func hasOutput(hasDemand: Bool) -> Bool {
        combination.hasNew
    }

    mutating func isExhausted(completed: [Bool], finishedCount: Int) -> Bool {
        finishedCount == 2
    }
}

struct CombineLatestStorage3<A, B, C>: CombineLatestStorage {
    typealias Output = (A, B, C)

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()
    var combination = LatestCombination()

    mutating func noteArrival() {
        combination.noteArrival()
    }

    mutating func considerOutput(hasDemand: Bool) -> Bool {
        combination.take() && hasDemand && !a.isEmpty && !b.isEmpty && !c.isEmpty
    }

    mutating func removeOutput() -> (A, B, C) {
        (a.oldest, b.oldest, c.oldest)
    }

    mutating func hasOutput(hasDemand: Bool) -> Bool {
        combination.hasNew
    }

    mutating func isExhausted(completed: [Bool], finishedCount: Int) -> Bool {
        finishedCount == 3
    }
}

struct CombineLatestStorage4<A, B, C, D>: CombineLatestStorage {
    typealias Output = (A, B, C, D)

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()
    var d = RingBuffer<D>()
    var combination = LatestCombination()

    mutating func noteArrival() {
        combination.noteArrival()
    }

    mutating func considerOutput(hasDemand: Bool) -> Bool {
        combination.take() && hasDemand && !a.isEmpty && !b.isEmpty && !c.isEmpty && !d.isEmpty
    }

    mutating func removeOutput() -> (A, B, C, D) {
        (a.oldest, b.oldest, c.oldest, d.oldest)
    }

    mutating func hasOutput(hasDemand: Bool) -> Bool {
        combination.hasNew
    }

    mutating func isExhausted(completed: [Bool], finishedCount: Int) -> Bool {
        finishedCount == 4
    }
}
