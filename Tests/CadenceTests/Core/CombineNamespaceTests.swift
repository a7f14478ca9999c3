import Cadence
import Foundation
import Testing

// Code that qualifies Combine's names by their module, as libraries do when a type of their own shares the name
// (CombineExt names `Combine.Subscription` and `Combine.Subscriber` in 9 of its 40 files). On Apple platforms
// `Combine` is Apple's module; elsewhere it is Cadence's `Combine` namespace, so this file compiles on both. Before
// the namespace, Linux stopped at the first `Combine.` with "cannot find type 'Combine' in scope".

/// A publisher of the pairs of its upstream's values, written as a library writes an operator: its subscription class
/// is called `Subscription`, so Combine's protocols are named by their module.
private struct Pairs<Upstream: Combine.Publisher>: Combine.Publisher {
    typealias Output = (Upstream.Output, Upstream.Output)
    typealias Failure = Upstream.Failure

    let upstream: Upstream

    func receive<Downstream: Combine.Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        upstream.subscribe(Subscription(downstream: subscriber))
    }

    /// Sits between the upstream and the downstream: pairs the values, and passes demand and cancellation on.
    final class Subscription<Downstream: Combine.Subscriber>: Combine.Subscription, Combine.Subscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let downstream: Downstream
        private var upstream: (any Combine.Subscription)?
        private var first: Upstream.Output?

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        func receive(subscription: any Combine.Subscription) {
            upstream = subscription
            downstream.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Combine.Subscribers.Demand {
            guard let first else {
                first = input
                return .none
            }
            self.first = nil
            return downstream.receive((first, input)) * 2
        }

        func receive(completion: Combine.Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        func request(_ demand: Combine.Subscribers.Demand) {
            upstream?.request(demand * 2)
        }

        func cancel() {
            upstream?.cancel()
            upstream = nil
        }
    }
}

extension Combine.Publisher {
    /// Pairs this publisher's values: the first with the second, the third with the fourth, and so on.
    fileprivate func pairs() -> some Combine.Publisher<(Output, Output), Failure> {
        Pairs(upstream: self)
    }
}

@Suite("Combine's names qualified by the module")
struct CombineNamespaceTests {
    @Test func anOperatorWrittenWithQualifiedNamesWorks() {
        var pairs: [String] = []
        let cancellable: Combine.AnyCancellable = [1, 2, 3, 4, 5].publisher
            .pairs()
            .sink { pairs.append("\($0.0)+\($0.1)") }
        #expect(pairs == ["1+2", "3+4"])
        let cancellables: [any Combine.Cancellable] = [cancellable]
        #expect(cancellables.count == 1)
    }

    @Test func everyQualifiedNameIsTheNameItself() {
        #expect(Combine.AnyCancellable.self == AnyCancellable.self)
        #expect(Combine.AnyPublisher<Int, Never>.self == AnyPublisher<Int, Never>.self)
        #expect(Combine.AnySubscriber<Int, Never>.self == AnySubscriber<Int, Never>.self)
        #expect(Combine.CombineIdentifier.self == CombineIdentifier.self)
        #expect(Combine.CurrentValueSubject<Int, Never>.self == CurrentValueSubject<Int, Never>.self)
        #expect(Combine.Deferred<Just<Int>>.self == Deferred<Just<Int>>.self)
        #expect(Combine.Empty<Int, Never>.self == Empty<Int, Never>.self)
        #expect(Combine.Fail<Int, URLError>.self == Fail<Int, URLError>.self)
        #expect(Combine.Future<Int, Never>.self == Future<Int, Never>.self)
        #expect(Combine.ImmediateScheduler.self == ImmediateScheduler.self)
        #expect(Combine.Just<Int>.self == Just<Int>.self)
        #expect(Combine.ObservableObjectPublisher.self == ObservableObjectPublisher.self)
        #expect(Combine.PassthroughSubject<Int, Never>.self == PassthroughSubject<Int, Never>.self)
        #expect(Combine.Published<Int>.self == Published<Int>.self)
        #expect(Combine.Record<Int, Never>.self == Record<Int, Never>.self)
        #expect(Combine.AsyncPublisher<Just<Int>>.self == AsyncPublisher<Just<Int>>.self)
        #expect(Combine.AsyncThrowingPublisher<Just<Int>>.self == AsyncThrowingPublisher<Just<Int>>.self)
        #expect(Combine.Publishers.Map<Just<Int>, String>.self == Publishers.Map<Just<Int>, String>.self)
        #expect(Combine.Subscribers.Demand.self == Subscribers.Demand.self)
        #expect(Combine.Subscriptions.self == Subscriptions.self)
        #expect((any Combine.Publisher<Int, Never>).self == (any Publisher<Int, Never>).self)
        #expect((any Combine.Subscriber<Int, Never>).self == (any Subscriber<Int, Never>).self)
        #expect((any Combine.Subscription).self == (any Subscription).self)
        #expect((any Combine.Cancellable).self == (any Cancellable).self)
        #expect((any Combine.Subject<Int, Never>).self == (any Subject<Int, Never>).self)
        #expect((any Combine.ConnectablePublisher<Int, Never>).self == (any ConnectablePublisher<Int, Never>).self)
        #expect(
            (any Combine.CustomCombineIdentifierConvertible).self == (any CustomCombineIdentifierConvertible).self
        )
        #expect((any Combine.ObservableObject).self == (any ObservableObject).self)
        #expect((any Combine.Scheduler).self == (any Scheduler).self)
        #expect((any Combine.SchedulerTimeIntervalConvertible).self == (any SchedulerTimeIntervalConvertible).self)
        #expect((any Combine.TopLevelDecoder).self == (any TopLevelDecoder).self)
        #expect((any Combine.TopLevelEncoder).self == (any TopLevelEncoder).self)
    }

    #if !canImport(Combine)
    /// Every top-level public name of the stand-in is in the namespace, so a qualified name never fails where the
    /// plain one works.
    @Test func theNamespaceHoldsEveryTopLevelNameOfTheStandIn() throws {
        let root = URL(fileURLWithPath: "\(#filePath)")
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/CadenceCombine")
        let declaration =
            #/^(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:final\s+)?(?:struct|class|enum|actor|protocol)\s+(\w+)/#
        let alias = #/^\s+public typealias (\w+) = CadenceCombine\.(\w+)$/#
        var declared: Set<String> = []
        var aliased: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                if let match = line.firstMatch(of: declaration), String(match.1) != "Combine" {
                    declared.insert(String(match.1))
                }
                if let match = line.wholeMatch(of: alias), match.1 == match.2 {
                    aliased.insert(String(match.1))
                }
            }
        }
        #expect(declared.count >= 32)
        #expect(declared.subtracting(aliased).sorted() == [])
        #expect(aliased.subtracting(declared).sorted() == [])
    }
    #endif
}
