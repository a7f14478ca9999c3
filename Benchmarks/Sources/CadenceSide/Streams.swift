import Cadence

// Cadence's side of the stream benchmarks. `PeerSide/Streams.swift` is the same code on OpenCombine, line for line:
// each function builds the same pipeline, pushes the same values and returns a checksum of what reached the end, so
// the optimiser cannot drop the work and the two sides can be checked against each other.

/// Benchmarks of Cadence's publishers. Every function returns a checksum of the values it received.
public enum CadenceStreams {
    /// `PassthroughSubject → map → filter → scan → sink`, `values` sends.
    public static func pipeline(values: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var checksum = 0
        let cancellable =
            subject
            .map { $0 &* 3 }
            .filter { $0 & 1 == 0 }
            .scan(0) { $0 &+ $1 }
            .sink { checksum = checksum &* 31 &+ $0 }
        for value in 0..<values { subject.send(value) }
        cancellable.cancel()
        return checksum
    }

    /// `subscriptions` times `Just(value).map { … }.sink { … }`: a subscription set up and torn down each time.
    public static func justMapSink(subscriptions: Int) -> Int {
        var checksum = 0
        for value in 0..<subscriptions {
            _ = Just(value).map { $0 &+ 1 }.sink { checksum &+= $0 }
        }
        return checksum
    }

    /// A `CurrentValueSubject` with `subscribers` sinks, then `sends` values sent to all of them.
    public static func currentValueFanOut(subscribers: Int, sends: Int) -> Int {
        let subject = CurrentValueSubject<Int, Never>(0)
        var checksum = 0
        var cancellables: [AnyCancellable] = []
        for subscriber in 0..<subscribers {
            cancellables.append(subject.sink { checksum &+= $0 &* (subscriber + 1) })
        }
        for value in 0..<sends { subject.send(value &+ 1) }
        cancellables.removeAll()
        return checksum
    }

    /// `(0..<values).publisher.eraseToAnyPublisher().collect()`: the array's count and sum.
    public static func collect(values: Int) -> Int {
        var checksum = 0
        _ = (0..<values).publisher.eraseToAnyPublisher().collect().sink { array in
            checksum = array.count &* 1_000_003 &+ array.reduce(0, &+)
        }
        return checksum
    }

    /// `(0..<values / 100).publisher.flatMap { (0..<100).publisher.map { … } }`: `values` values through `flatMap`.
    public static func flatMap(values: Int) -> Int {
        var checksum = 0
        _ = (0..<values / 100).publisher
            .flatMap { outer in (0..<100).publisher.map { outer &* 100 &+ $0 } }
            .sink { checksum = checksum &* 31 &+ $0 }
        return checksum
    }

    /// `subject.flatMap { Just($0) }`: one inner subscription per value, `values` sends.
    public static func flatMapJust(values: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var checksum = 0
        let cancellable =
            subject
            .flatMap { Just($0 &* 3) }
            .sink { checksum = checksum &* 31 &+ $0 }
        for value in 0..<values { subject.send(value) }
        cancellable.cancel()
        return checksum
    }

    /// `subject.flatMap { value in Future { $0(.success(value)) } }`: one inner subscription per value, `values`
    /// sends.
    public static func flatMapFuture(values: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var checksum = 0
        let cancellable =
            subject
            .flatMap { value in Future<Int, Never> { promise in promise(.success(value &* 3)) } }
            .sink { checksum = checksum &* 31 &+ $0 }
        for value in 0..<values { subject.send(value) }
        cancellable.cancel()
        return checksum
    }

    /// Two subjects merged; `values` sends, alternately to each.
    public static func merge(values: Int) -> Int {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var checksum = 0
        let cancellable = left.merge(with: right).sink { checksum = checksum &* 31 &+ $0 }
        for value in 0..<values {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        cancellable.cancel()
        return checksum
    }

    /// Two subjects combined with `combineLatest`; `values` sends, alternately to each.
    public static func combineLatest(values: Int) -> Int {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var checksum = 0
        let cancellable = left.combineLatest(right).sink { checksum = checksum &* 31 &+ ($0 &* 7 &+ $1) }
        for value in 0..<values {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        cancellable.cancel()
        return checksum
    }

    /// Two subjects zipped; `values` sends, alternately to each (`values / 2` pairs).
    public static func zip(values: Int) -> Int {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var checksum = 0
        let cancellable = left.zip(right).sink { checksum = checksum &* 31 &+ ($0 &* 7 &+ $1) }
        for value in 0..<values {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        cancellable.cancel()
        return checksum
    }

    /// `subject.map { … }.share()` with `subscribers` sinks; `values` sends.
    public static func share(values: Int, subscribers: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.map { $0 &* 2 }.share()
        var checksum = 0
        var cancellables: [AnyCancellable] = []
        for subscriber in 0..<subscribers {
            cancellables.append(shared.sink { checksum &+= $0 &* (subscriber + 1) })
        }
        for value in 0..<values { subject.send(value) }
        cancellables.removeAll()
        return checksum
    }
}
