import Cadence
import Testing

@Suite("Publishers.Print")
struct PrintTests {
    typealias Events = [Event<Int, TestError>]

    /// A stream that records every string written to it.
    final class Recorder: TextOutputStream, @unchecked Sendable { // `lock` guards `writes`
        private let lock = TestLock()
        private var writes: [String] = []

        func write(_ string: String) {
            lock.withLock { writes.append(string) }
        }

        var all: [String] { lock.withLock { writes } }

        var text: String { all.joined() }
    }

    @Test func logsAFinishingSubscription() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let recorder = Recorder()
        publisher.print(to: recorder).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(
            recorder.text == """
                receive subscription: (TestSubscription)
                request unlimited
                receive value: (1)
                receive value: (2)
                receive finished

                """)
    }

    @Test func eachLineIsWrittenAsSwiftPrintWritesIt() {
        let recorder = Recorder()
        Just(5).print(to: recorder).subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
        #expect(recorder.all == ["", "receive subscription: (Just)", "\n"])
    }

    @Test func prefixesEveryLine() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let recorder = Recorder()
        publisher.print("numbers", to: recorder).subscribe(subscriber)

        publisher.send(1)
        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))] as Events)
        #expect(
            recorder.text == """
                numbers: receive subscription: (TestSubscription)
                numbers: request unlimited
                numbers: receive value: (1)
                numbers: receive error: (oops)

                """)
    }

    @Test func logsDemandAndPassesItThrough() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: .max(1),
            onValue: { value in
                switch value {
                case 1: .max(2)
                case 2: .unlimited
                default: .none
                }
            })
        let recorder = Recorder()
        publisher.print("p", to: recorder).subscribe(subscriber)

        #expect(publisher.subscription.requests == [.max(1)])
        #expect(publisher.send(1) == .max(2))
        #expect(publisher.send(2) == .unlimited)
        #expect(publisher.send(3) == .none)
        subscriber.request(.max(4))
        #expect(publisher.subscription.requests == [.max(1), .max(4)])
        #expect(subscriber.values == [1, 2, 3])
        #expect(
            recorder.text == """
                p: receive subscription: (TestSubscription)
                p: request max: (1)
                p: receive value: (1)
                p: request max: (2) (synchronous)
                p: receive value: (2)
                p: request unlimited (synchronous)
                p: receive value: (3)
                p: request max: (4)

                """)
    }

    @Test func cancelIsLoggedAndCancelsTheUpstreamOnce() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        let recorder = Recorder()
        publisher.print(to: recorder).subscribe(subscriber)

        publisher.send(1)
        subscriber.cancel()
        subscriber.cancel()
        let upstream = publisher.subscription
        #expect(upstream.cancelCount == 1)

        // A misbehaving upstream keeps sending: as in Combine, the log shows it and the subscriber gets it too.
        #expect(upstream.downstream.receive(2) == .none)
        upstream.downstream.receive(completion: .finished)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(upstream.requests == [.max(2)])
        #expect(
            recorder.text == """
                receive subscription: (TestSubscription)
                request max: (2)
                receive value: (1)
                receive cancel
                receive cancel
                receive value: (2)
                receive finished
                request max: (1)

                """)
    }

    /// As in Combine, the operator checks nothing: what a misbehaving upstream sends after its completion is logged
    /// and goes on, and the subscriber's later request no longer reaches the upstream.
    @Test func eventsAfterCompletionAreLoggedAndGoOn() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let recorder = Recorder()
        publisher.print(to: recorder).subscribe(subscriber)

        let upstream = publisher.subscription
        upstream.downstream.receive(completion: .finished)
        #expect(upstream.downstream.receive(1) == .none)
        upstream.downstream.receive(completion: .failure(.oops))
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .completion(.finished), .value(1), .completion(.failure(.oops))]
                as Events)
        #expect(upstream.requests == [.unlimited])
        #expect(
            recorder.text == """
                receive subscription: (TestSubscription)
                request unlimited
                receive finished
                receive value: (1)
                receive error: (oops)
                request max: (1)

                """)
    }

    /// As in Combine, a value before the subscription is logged and goes on.
    @Test func aValueBeforeTheSubscriptionIsLoggedAndGoesOn() {
        let publisher = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(onValue: { _ in .max(2) })
        let recorder = Recorder()
        publisher.print(to: recorder).subscribe(subscriber)

        #expect(publisher.subscription.downstream.receive(5) == .max(2))
        #expect(subscriber.events == [.value(5)] as Events)
        #expect(
            recorder.text == """
                receive value: (5)
                request max: (2) (synchronous)

                """)
    }

    @Test func aSecondSubscriptionIsLoggedThenCancelled() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        let recorder = Recorder()
        publisher.print(to: recorder).subscribe(subscriber)

        publisher.subscription.deliver()
        #expect(publisher.subscription.cancelCount == 1)
        #expect(subscriber.subscriptions == 1)
        #expect(
            recorder.text == """
                receive subscription: (TestSubscription)
                receive subscription: (TestSubscription)

                """)
    }

    @Test func storesItsParameters() {
        let recorder = Recorder()
        let printing = Just(1).print("x", to: recorder)
        #expect(printing.prefix == "x")
        #expect(printing.upstream == Just(1))
        #expect((printing.stream as? Recorder) === recorder)
        #expect(Just(1).print().stream == nil)
        #expect(Just(1).print().prefix == "")
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func writesToStandardOutputByDefault() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            Just(3).print("out").subscribe(TestSubscriber<Int, Never>())
        }
        let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
        #expect(
            output?.contains(
                """
                out: receive subscription: (Just)
                out: request unlimited
                out: receive value: (3)
                out: receive finished

                """) == true)
    }
    #endif

    @Test func concurrentValuesRequestsAndCancelDoNotRace() {
        SingleUpstreamOperatorChecks.concurrentValuesRequestsAndCancelDoNotRace { publisher in
            let recorder = Recorder()
            return (
                publisher.print(to: recorder),
                { _ in
                    #expect(recorder.all.filter { $0 == "receive cancel" }.count == 1)
                }
            )
        }
    }

    @Test func reflection() {
        let subscriber = TestSubscriber<Int, TestError>()
        DrivenPublisher<Int, TestError>().print(to: Recorder()).subscribe(subscriber)
        expectSlicingReflection(of: subscriber.subscription, description: "Print")
    }

    /// As in Combine, a request for nothing is logged and passed on to the upstream rather than trapped.
    @Test func aRequestForNothingIsLoggedAndPassedOn() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        let recorder = Recorder()
        publisher.print(to: recorder).subscribe(subscriber)
        subscriber.request(.none)
        #expect(publisher.subscription.requests == [.none])
        #expect(
            recorder.text == """
                receive subscription: (TestSubscription)
                request max: (0)

                """)
    }
}
