/// The subscription behind `Publishers.Zip`, `Zip3` and `Zip4`: values wait in one queue per upstream until each
/// upstream has one, and the value that completes a tuple sends it at once, as Combine's zip does, whether or not the
/// downstream has demand left (it passes the downstream's demand to its upstreams, so an upstream that honours demand
/// stays within it). It finishes as soon as an upstream
/// that has finished has no value left waiting (no further tuple is possible); a failure cancels every upstream that
/// has not completed, the failing one included, as Combine does.
typealias ZipInner<Storage: ZipStorage, Downstream: Subscriber> = TupleCombiningInner<Storage, Downstream>
where Downstream.Input == Storage.Output

/// Typed queues for the values each upstream of a zip has produced and the downstream has not yet received.
protocol ZipStorage: TupleCombiningStorage {
    /// How many upstreams are zipped.
    static var arity: Int { get }
    /// How many values the upstream at `index` has waiting.
    func count(at index: Int) -> Int
    /// Whether every upstream has a value waiting.
    var isComplete: Bool { get }
    /// Removes the oldest value of every upstream, as one tuple; only when each has one.
    mutating func removeTuple() -> Output
}

extension ZipStorage {
    static var operatorName: String { "Zip" }

    static var outputWaitsForDemand: Bool { true }

    static var cancelsFailingUpstream: Bool { true }

    static var requiresPositiveDemand: Bool { true }

    mutating func considerOutput(hasDemand _: Bool) -> Bool {
        isComplete
    }

    mutating func removeOutput() -> Output {
        removeTuple()
    }

    mutating func hasOutput(hasDemand _: Bool) -> Bool {
        isComplete
    }

    mutating func isExhausted(completed: [Bool], finishedCount: Int) -> Bool {
        completed.indices.contains { completed[$0] && count(at: $0) == 0 }
    }

    var mirrorChild: Mirror.Child {
        ("buffered", (0..<Self.arity).map(count(at:)))
    }
}

struct ZipStorage2<A, B>: ZipStorage {
    typealias Output = (A, B)

    static var arity: Int { 2 }

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()

    func count(at index: Int) -> Int { index == 0 ? a.count : b.count }

    var isComplete: Bool { !a.isEmpty && !b.isEmpty }

    mutating func removeTuple() -> (A, B) { (a.removeFirst(), b.removeFirst()) }
}

struct ZipStorage3<A, B, C>: ZipStorage {
    typealias Output = (A, B, C)

    static var arity: Int { 3 }

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()

    func count(at index: Int) -> Int {
        switch index {
        case 0: a.count
        case 1: b.count
        default: c.count
        }
    }

    var isComplete: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty }

    mutating func removeTuple() -> (A, B, C) { (a.removeFirst(), b.removeFirst(), c.removeFirst()) }
}

struct ZipStorage4<A, B, C, D>: ZipStorage {
    typealias Output = (A, B, C, D)

    static var arity: Int { 4 }

    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()
    var d = RingBuffer<D>()

    func count(at index: Int) -> Int {
        switch index {
        case 0: a.count
        case 1: b.count
        case 2: c.count
        default: d.count
        }
    }

    var isComplete: Bool { !a.isEmpty && !b.isEmpty && !c.isEmpty && !d.isEmpty }

    mutating func removeTuple() -> (A, B, C, D) {
        (a.removeFirst(), b.removeFirst(), c.removeFirst(), d.removeFirst())
    }
}
