/// The subscription behind `Publishers.CombineLatest`, `CombineLatest3` and `CombineLatest4`: it keeps only the
/// latest value of each upstream, and a value that arrives while the downstream has no demand replaces the previous
/// one and produces no output (a value that arrives while another thread delivers is combined and sent as soon as
/// that delivery returns, if the downstream still has demand). It finishes when every upstream has finished; a
/// failure cancels the other upstreams.
typealias CombineLatestInner<Storage: CombineLatestStorage, Downstream: Subscriber> =
    TupleCombiningInner<Storage, Downstream> where Downstream.Input == Storage.Output

/// The latest value of each upstream of a combineLatest, typed.
protocol CombineLatestStorage: TupleCombiningStorage {
    /// How many upstreams are combined.
    static var arity: Int { get }
    /// The tuple of the latest values, once every upstream has produced one.
    var combined: Output? { get }
    /// Whether a value has arrived since the last output was considered.
    var hasNewCombination: Bool { get set }
}

extension CombineLatestStorage {
    static var operatorName: String { "CombineLatest" }

    static var outputWaitsForDemand: Bool { false }

    static var cancelsFailingUpstream: Bool { false }

    mutating func noteArrival() {
        hasNewCombination = true
    }

    mutating func takeOutput(hasDemand: Bool) -> Output? {
        guard hasNewCombination else { return nil }
        hasNewCombination = false
        return hasDemand ? combined : nil
    }

    func hasOutput(hasDemand: Bool) -> Bool {
        hasNewCombination
    }

    func isExhausted(completed: [Bool], finishedCount: Int) -> Bool {
        finishedCount == Self.arity
    }

    var mirrorChild: Mirror.Child { ("latest", self) }
}

struct CombineLatestStorage2<A, B>: CombineLatestStorage {
    typealias Output = (A, B)

    static var arity: Int { 2 }

    var a: A?
    var b: B?
    var hasNewCombination = false

    var combined: (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}

struct CombineLatestStorage3<A, B, C>: CombineLatestStorage {
    typealias Output = (A, B, C)

    static var arity: Int { 3 }

    var a: A?
    var b: B?
    var c: C?
    var hasNewCombination = false

    var combined: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }
}

struct CombineLatestStorage4<A, B, C, D>: CombineLatestStorage {
    typealias Output = (A, B, C, D)

    static var arity: Int { 4 }

    var a: A?
    var b: B?
    var c: C?
    var d: D?
    var hasNewCombination = false

    var combined: (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }
}

