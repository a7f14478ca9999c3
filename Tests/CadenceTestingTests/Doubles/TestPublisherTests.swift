import CadenceTesting
import Dispatch
import Testing

private enum TickerError: Error, Equatable {
    case dropped
}

/// `VirtualClock.hot`/`cold` and `probed(on:)` (Sources/CadenceTesting/Doubles): scripted inputs on the clock, and
/// probes that record every subscription.
@Suite struct TestPublisherTests {
    // MARK: Hot and cold

    @Test func aHotPublisherPlaysOnTheClocksTicksToWhoeverIsSubscribed() {
        let clock = VirtualClock()
        let feed = clock.hot("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])
        expect(feed, on: clock).toMatch("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])

        let late = VirtualClock()
        let lateFeed = late.hot("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])
        late.advance(by: .ticks(2))
        // Subscribed at tick 2: `a` is gone; the diagram counts from the step's start.
        expect(lateFeed, on: late).toMatch("-b-c|", values: ["b": 2, "c": 3])
        // After the completion, a subscriber gets it at once.
        expect(lateFeed, on: late).toFinish(within: .zero)
    }

    @Test func aColdPublisherPlaysItsScriptToEachSubscriberFromItsSubscription() {
        let clock = VirtualClock()
        let response = clock.cold("--(r|)", values: ["r": "accepted"])
        expect(response, on: clock).toMatch("--(r|)", values: ["r": "accepted"])
        clock.advance(by: .ticks(5))
        expect(response, on: clock).toMatch("--(r|)", values: ["r": "accepted"])
        #expect(response.subscriptionDiagrams == ["^-!", "-------^-!"]) // the first step ended at tick 2; then 5 more
    }

    @Test func theListFormAndAFailure() {
        let clock = VirtualClock()
        let prices = clock.hot([(1, .value(101)), (4, .value(99)), (6, .failure(TickerError.dropped))])
        expect(prices, on: clock)
            .toEmit(101, within: .ticks(1))
            .thenEmit(99, within: .ticks(3))
            .thenFail(with: .dropped, within: .ticks(2))

        let quotes = clock.cold("-a#", values: ["a": 1], error: TickerError.dropped)
        expect(quotes, on: clock).toMatch("-a#", values: ["a": 1], error: TickerError.dropped)
    }

    /// Every form is on the test schedulers too, on their clock.
    @Test func everyFormIsOnTheTestSchedulers() {
        let scheduler = DispatchQueue.test
        let hot: TestPublisher<Int, TickerError> = scheduler.hot("-a#", values: ["a": 1], error: .dropped)
        let cold: TestPublisher<Int, TickerError> = scheduler.cold("-a#", values: ["a": 1], error: .dropped)
        let hotList: TestPublisher<Int, Never> = scheduler.hot([(1, .value(1)), (2, .finished)])
        let coldList: TestPublisher<Int, Never> = scheduler.cold([(1, .value(1)), (2, .finished)])
        #expect([hot.clock, cold.clock, hotList.clock, coldList.clock].allSatisfy { $0 === scheduler.clock })
        expect(hot, on: scheduler).toMatch("-a#", values: ["a": 1], error: TickerError.dropped)
        expect(coldList, on: scheduler).toMatch("-a|", values: ["a": 1])
    }

    // MARK: Demand

    @Test func aHotPublisherDropsAValueThatFindsNoDemand() {
        let clock = VirtualClock()
        let feed = clock.hot("-a-b-c", values: ["a": 1, "b": 2, "c": 3])
        expect(feed, on: clock, demand: .none)
            .thenRequest(.max(1))
            .toEmit(1, within: .ticks(1))
            .thenEmitNothing(for: .ticks(2)) // b finds no demand: dropped
            .thenRequest(.max(1))
            .thenEmit(3, within: .ticks(2))
        #expect(
            feed.subscriptions == [
                SubscriptionRecord(
                    subscribed: 0, requests: [(0, .max(1)), (3, .max(1))]
                )
            ])
    }

    @Test func aColdPublisherKeepsValuesUntilTheyAreAskedFor() {
        let clock = VirtualClock()
        let page = clock.cold("(abc|)", values: ["a": 1, "b": 2, "c": 3])
        expect(page, on: clock, demand: .max(1))
            .toEmit(1)
            .thenEmitNothing(for: .ticks(5))
            .thenRequest(.max(2))
            .thenEmit([2, 3])
            .thenFinish()
    }

    @Test func aCopyThatIgnoresDemandBreaksTheContractAndExpectSaysSo() {
        let clock = VirtualClock()
        let flood = clock.cold("(ab)", values: ["a": 1, "b": 2]).ignoringDemand()
        #expect(!flood.honoursDemand)
        let failures = recordingFailures {
            expect(flood, on: clock, demand: .max(1)).toEmit([1, 2])
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the publisher sent 2 at tick 0 beyond the demand "
                    + "requested (.max(1) in all), which breaks the subscription contract (rule 1.1)."
            ])
    }

    // MARK: Subscriptions

    @Test func subscriptionsAreRecordedWithTheirRequestsAndTheirEnd() {
        let clock = VirtualClock()
        let feed = clock.hot("-a-b-c-d", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        expect(feed, on: clock).toEmit([1, 2], within: .ticks(3)).thenCancel().thenIgnoreRest()
        clock.advance(by: .ticks(2))
        expect(feed, on: clock).toEmit(4, within: .ticks(3)).thenIgnoreRest()
        // The first chain cancels at tick 3; the second, which ignores the rest, lets go when it ends at tick 7.
        #expect(feed.subscriptionDiagrams == ["^--!", "-----^-!"])
        #expect(
            feed.subscriptions.map(\.description) == [
                "subscribed at tick 0, requested unlimited at tick 0, cancelled at tick 3",
                "subscribed at tick 5, requested unlimited at tick 5, cancelled at tick 7",
            ])
        feed.expectSubscriptions(["^--!", "-----^-!"])
    }

    @Test func expectSubscriptionsListsEverySubscriptionWhenTheyDiffer() {
        let clock = VirtualClock()
        let feed = clock.hot("-a|", values: ["a": 1])
        expect(feed, on: clock).toEmit(1, within: .ticks(1)).thenFinish(within: .ticks(1))
        expectFailures([
            """
            hot.expectSubscriptions(["^-!", "^"]) failed: received ["^-!"], counted from tick 0.

            Subscriptions:
                1. ^-!  subscribed at tick 0, requested unlimited at tick 0, completed at tick 2
            """
        ]) {
            feed.expectSubscriptions(["^-!", "^"])
        }
    }

    /// A typed input that this test does not fail needs no dummy `error:`: its `Failure` comes from the context.
    @Test func aTypedInputWithNoFailureInItsDiagramNeedsNoError() {
        let clock = VirtualClock()
        expectNoFailures {
            let input: TestPublisher<Int, TickerError> = clock.hot("-a-|", values: ["a": 1])
            let response: TestPublisher<String, TickerError> = clock.cold("--(r|)", values: ["r": "accepted"])
            let scheduler = DispatchQueue.test
            let onScheduler: TestPublisher<Int, TickerError> = scheduler.hot("-a", values: ["a": 1])
            let coldOnScheduler: TestPublisher<Int, TickerError> = scheduler.cold("a|", values: ["a": 1])
            #expect(onScheduler.clock === scheduler.clock && coldOnScheduler.clock === scheduler.clock)
            #expect(input.temperature == .hot && response.temperature == .cold)
            expect(input, on: clock).toMatch("-a-|", values: ["a": 1])
            expect(response, on: clock).toMatch("--(r|)", values: ["r": "accepted"])
        }
        // Without a Failure from the context, the input cannot fail, as before.
        let untyped = clock.hot("-a", values: ["a": 1])
        #expect(type(of: untyped) == TestPublisher<Int, Never>.self)
    }

    @Test func aFailureInTheDiagramOfATypedInputWithNoErrorIsReportedAtTheCall() {
        let clock = VirtualClock()
        var lines: [Int] = []
        let failures = recordingFailures {
            lines.append(#line + 1)
            let hot: TestPublisher<Int, TickerError> = clock.hot("-a#", values: ["a": 1])
            lines.append(#line + 1)
            let cold: TestPublisher<Int, TickerError> = DispatchQueue.test.cold("--#", values: ["a": 1])
            #expect(hot.script.isEmpty && cold.script.isEmpty)
        }
        #expect(
            failures.map(\.message) == [
                ##"hot("-a#") cannot be played: "#" at character 3 fails the publisher, but no error: was given to fail it with (its Failure is TickerError); pass error:. It plays nothing."##,
                ##"cold("--#") cannot be played: "#" at character 3 fails the publisher, but no error: was given to fail it with (its Failure is TickerError); pass error:. It plays nothing."##,
            ])
        #expect(failures.map { Int($0.location.line) } == lines)
    }

    // MARK: Probes

    /// Under `.virtualTime`, `probed()` takes the test's clock, as `expect` and the test schedulers do.
    @Test(.virtualTime) func probedTakesTheTestsClockUnderTheTrait() {
        let scheduler = DispatchQueue.test
        let request = scheduler.clock.cold("--(a|)", values: ["a": 1]).probed()
        expect(request).toEmit(1, within: .ticks(2)).thenFinish()
        request.expectSubscriptions(["^-!"])
    }

    @Test func probedTakesTheClockOfWithVirtualTime() {
        let (clock, probed) = withVirtualTime { clock in
            let probed = clock.cold("---(a|)", values: ["a": 7]).probed()
            expect(probed).toEmit(7, within: .ticks(3)).thenFinish()
            return (clock, probed)
        }
        #expect(probed.subscriptionDiagrams == ["^--!"])
        #expect(clock.now.ticks == 3)
    }

    /// Outside a session there is no test clock: the call is reported at its line, and the probe records on a clock
    /// of its own, which stays at tick 0, rather than trapping.
    @Test func probedOutsideASessionIsReportedAtTheCallAndRecordsAtTickZero() {
        var line = 0
        var probed: ProbedPublisher<Just<Int>>?
        let failures = recordingFailures {
            line = #line + 1
            probed = Just(1).probed()
        }
        #expect(
            failures.map(\.message) == [
                "probed() found no test clock: it records on VirtualClock.current, which .virtualTime and "
                    + "withVirtualTime bind, and none is bound here. Pass the clock with probed(on:). This probe "
                    + "records on a clock of its own that nothing advances, so every tick it notes is 0."
            ])
        #expect(failures.map { Int($0.location.line) } == [line])
        let received = Synchronized<[Int]>([])
        _ = probed?.sink { value in received.withLock { $0.append(value) } }
        #expect(received.withLock { $0 } == [1])
        #expect(probed?.subscriptionDiagrams == ["(^!)"])
    }

    /// A probe's failed check names the call that made it. Before: `probed(on:).expectSubscriptions(…)` for both.
    @Test func aProbesFailedCheckNamesTheCallThatMadeIt() {
        let clock = VirtualClock()
        expectFailures([
            """
            probed().expectSubscriptions(["^!"]) failed: received ["(^!)"], counted from tick 0.

            Subscriptions:
                1. (^!)  subscribed at tick 0, requested unlimited at tick 0, completed at tick 0
            """,
            """
            probed(on:).expectSubscriptions(["^!"]) failed: received ["(^!)"], counted from tick 0.

            Subscriptions:
                1. (^!)  subscribed at tick 0, requested unlimited at tick 0, completed at tick 0
            """,
        ]) {
            let ambient = VirtualClock.$current.withValue(clock) { Just(1).probed() }
            let passed = Just(1).probed(on: clock)
            _ = ambient.sink { _ in }
            _ = passed.sink { _ in }
            ambient.expectSubscriptions(["^!"])
            passed.expectSubscriptions(["^!"])
        }
    }

    /// "Did switchToLatest cancel the stale request?" in one line.
    @Test func aProbeShowsSwitchToLatestCancellingTheStaleRequest() {
        let clock = VirtualClock()
        let queries = clock.hot("-a--b", values: ["a": "sw", "b": "swift"])
        var requests: [ProbedPublisher<TestPublisher<[String], Never>>] = []
        let results = queries.map { query in
            let request = clock.cold("---r", values: ["r": [query]]).probed(on: clock)
            requests.append(request)
            return request
        }.switchToLatest()
        expect(results, on: clock).toEmit(["swift"], within: .ticks(7)).thenIgnoreRest()
        // Each request's diagram counts from the tick it was made: the one for "sw" (tick 1) was cancelled when
        // "swift" came at tick 4; the one for "swift" lasted until the chain ended, at tick 7.
        requests[0].expectSubscriptions(["^--!"])
        #expect(requests.map { $0.subscriptions.map(\.cancelled) } == [[4], [7]])
    }

    // MARK: Bad input

    @Test func aDiagramThatCannotBePlayedIsReportedAtTheCallAndPlaysNothing() {
        let clock = VirtualClock()
        expectFailures([
            #"hot("-a-(b") cannot be played: the group opened at character 4 is never closed; close it with ")". It plays nothing."#,
            #"cold("-a-x") cannot be played: "x" at character 4 is not a key of values: (it has "a", "b"). It plays nothing."#,
            ##"hot("-a#") cannot be played: "#" at character 3 fails the publisher, but it cannot fail (its Failure is Never); pass error: to make one that can. It plays nothing."##,
            "cold(_:) cannot be played: event 2 is at tick 1, before event 1's tick 3. It plays nothing.",
            "hot(_:) cannot be played: event 2 follows the completion at event 1. It plays nothing.",
        ]) {
            let unclosed = clock.hot("-a-(b", values: ["a": 1, "b": 2])
            let unknown = clock.cold("-a-x", values: ["a": 1, "b": 2])
            let cannotFail = clock.hot("-a#", values: ["a": 1])
            let backwards: TestPublisher<Int, Never> = clock.cold([(3, .value(1)), (1, .value(2))])
            let afterEnd: TestPublisher<Int, Never> = clock.hot([(1, .finished), (2, .value(2))])
            #expect(unclosed.script.isEmpty && unknown.script.isEmpty && cannotFail.script.isEmpty)
            #expect(backwards.script.isEmpty && afterEnd.script.isEmpty)
        }
    }
}
