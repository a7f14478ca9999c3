import CadenceSupport
import Foundation
import Testing

@testable import CadenceTesting

private enum ContractTestError: Error {
    case failed
}

/// A publisher of Cadence's checked against the contract: its name, and the check.
struct ContractCase: Sendable, CustomTestStringConvertible {
    let name: String
    let check: @Sendable (VirtualClock) -> Void

    init(_ name: String, check: @escaping @Sendable (VirtualClock) -> Void) {
        self.name = name
        self.check = check
    }

    var testDescription: String { name }
}

/// `checkPublisherContract` (Sources/CadenceTesting/Doubles/PublisherContract.swift): every rule caught on a publisher
/// that breaks it, by its exact message; Cadence's own publishers and operators pass.
@Suite struct PublisherContractTests {
    // MARK: Each rule, broken on purpose

    @Test func valuesBeyondDemandBreakRule1_1() {
        expectFailures([
            """
            checkPublisherContract: FloodingPublisher broke rule 1.1 (a publisher sends no more values than requested): \
            it sent 2 values when max(1) had been requested, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract { FloodingPublisher() }
        }
    }

    @Test func signalsFromTwoThreadsAtOnceBreakRule1_3() {
        expectFailures([
            """
            checkPublisherContract: OverlappingPublisher broke rule 1.3 (a publisher signals its subscriber serially, \
            never from two threads at once): it called receive(_:) from a second thread while the first was still in a \
            call of the subscriber, in the probe "re-entrant request".
            """
        ]) {
            checkPublisherContract { OverlappingPublisher() }
        }
    }

    @Test func aValueAfterTheCompletionBreaksRule1_7() {
        expectFailures([
            """
            checkPublisherContract: SendsAfterFinishingPublisher broke rule 1.7 (nothing follows a completion): it sent \
            a value after it had finished, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract { SendsAfterFinishingPublisher() }
        }
    }

    @Test func aSecondCompletionBreaksRule1_7() {
        expectFailures([
            """
            checkPublisherContract: FinishingTwicePublisher broke rule 1.7 (nothing follows a completion): it sent a \
            completion (finished) after it had finished, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract { FinishingTwicePublisher() }
        }
    }

    @Test func aValueAfterTheCancelBreaksRule1_8() {
        expectFailures([
            """
            checkPublisherContract: FinishesWhatItStartedPublisher broke rule 1.8 (nothing follows a cancel): it sent a \
            value after the subscription was cancelled, in the probe "cancel while delivering".
            """
        ]) {
            checkPublisherContract { FinishesWhatItStartedPublisher() }
        }
    }

    @Test func noSubscriptionBreaksRule1_9() {
        expectFailures([
            """
            checkPublisherContract: SubscriptionlessPublisher broke rule 1.9 (a publisher sends a subscription before anything \
            else): it sent no subscription during subscribe(_:), in the probe "demand one at a time".
            """,
            """
            checkPublisherContract: SubscriptionlessPublisher broke rule 1.9 (a publisher sends a subscription before anything \
            else): it never sent a subscription, not even once the clock had run out of work, in the probe "demand one \
            at a time".
            """,
        ]) {
            checkPublisherContract { SubscriptionlessPublisher() }
            let clock = VirtualClock()
            checkPublisherContract(on: clock) { SubscriptionlessPublisher() }
        }
    }

    @Test func aValueBeforeTheSubscriptionBreaksRule1_9() {
        expectFailures([
            """
            checkPublisherContract: EagerPublisher broke rule 1.9 (a publisher sends a subscription before anything \
            else): it sent a value before a subscription, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract { EagerPublisher() }
        }
    }

    @Test func aSecondSubscriptionBreaksRule2_12() {
        expectFailures([
            """
            checkPublisherContract: DoublySubscribingPublisher broke rule 2.12 (a publisher sends a subscriber one \
            subscription): it sent a second subscription (the probe cancelled it), in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract { DoublySubscribingPublisher() }
        }
    }

    @Test func aRequestAfterTheCancelThatDeliversBreaksRule3_6() {
        expectFailures([
            """
            checkPublisherContract: StillListeningPublisher broke rule 3.6 (a request after a cancel does nothing): \
            request(.max(1)) after cancel() made it send a value, in the probe "cancel before any request".
            """
        ]) {
            checkPublisherContract { StillListeningPublisher() }
        }
    }

    @Test func aSubscriberKeptAfterTheEndBreaksRule3_13() {
        expectFailures([
            """
            checkPublisherContract: HoardingPublisher broke rule 3.13 (a cancelled or completed subscription lets go \
            of its subscriber): it still held the subscriber after the subscription was completed and the probe had \
            let go of everything else, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract { HoardingPublisher() }
        }
    }

    @Test func threadsThatDoNotReturnBreakRuleC_1() {
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<200 { gate.signal() } } // lets the probe's threads go
        expectFailures([
            """
            checkPublisherContract: HangingPublisher broke rule C.1 (subscribe(_:), request(_:) and cancel() return, \
            even when called from several threads at once): 4 threads calling request(_:) and cancel() had not all \
            returned after 1 second; they are left running, in the probe "concurrent requests and cancel".
            """
        ]) {
            checkPublisherContract(
                on: nil, waitingForThreads: 1,
                at: SourceCodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
            ) { HangingPublisher(gate: gate) }
        }
    }

    @Test func aSubscribeThatDoesNotReturnBreaksRuleC_1AndEndsTheCheck() {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() } // lets the probe's thread go
        let made = Locked(0)
        expectFailures([
            """
            checkPublisherContract: StuckSubscribingPublisher broke rule C.1 (subscribe(_:), request(_:) and cancel() \
            return, even when called from several threads at once): it had not returned from subscribe(_:) after 1 \
            second on the probe's thread, which is left running, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract(
                on: nil, waitingForThreads: 1,
                at: SourceCodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
            ) {
                made.withLock { $0 += 1 }
                return StuckSubscribingPublisher(gate: gate)
            }
        }
        // No probe after the one that hung: each would wait its second for nothing.
        #expect(made.withLock { $0 } == 1)
    }

    @Test func aRequestThatDoesNotReturnBreaksRuleC_1() {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        expectFailures([
            """
            checkPublisherContract: StuckRequestingPublisher broke rule C.1 (subscribe(_:), request(_:) and cancel() \
            return, even when called from several threads at once): it had not returned from request(_:) after 1 \
            second on the probe's thread, which is left running, in the probe "demand one at a time".
            """
        ]) {
            checkPublisherContract(
                on: nil, waitingForThreads: 1,
                at: SourceCodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
            ) { StuckRequestingPublisher(gate: gate) }
        }
    }

    @Test func offTheMainActorEachProbeRunsOnAThreadOfItsOwnWithTheCallersClock() {
        let notes = Locked<[ThreadNotingPublisher.Note]>([])
        let clock = VirtualClock()
        Thread.current.threadDictionary["calledTheCheck"] = true
        defer { Thread.current.threadDictionary["calledTheCheck"] = nil }
        VirtualClock.$current.withValue(clock) {
            expectNoFailures {
                checkPublisherContract { ThreadNotingPublisher(notes: notes) }
            }
        }
        let seen = notes.withLock { $0 }
        #expect(seen.count == 15) // seven probes, and the concurrent probe's eight rounds
        #expect(seen.allSatisfy { !$0.onTheCallersThread && !$0.onMainQueue && $0.clock == ObjectIdentifier(clock) })
    }

    @Test func whatThePublisherReportsOnTheProbesThreadReachesTheCallersTest() {
        let reported = Locked(false)
        expectFailures(["reported from inside subscribe(_:)"]) {
            checkPublisherContract { ReportingPublisher(reported: reported) }
        }
    }

    @MainActor @Test func onTheMainActorTheProbesRunThere() {
        let notes = Locked<[ThreadNotingPublisher.Note]>([])
        Thread.current.threadDictionary["calledTheCheck"] = true
        defer { Thread.current.threadDictionary["calledTheCheck"] = nil }
        expectNoFailures {
            checkPublisherContract { ThreadNotingPublisher(notes: notes) }
        }
        let seen = notes.withLock { $0 }
        #expect(seen.count == 15)
        #expect(seen.allSatisfy { $0.onMainQueue && $0.onTheCallersThread })
    }

    @Test func theFailureIsReportedAtTheCall() {
        let failures = recordingFailures {
            checkPublisherContract { FloodingPublisher() }
        }
        #expect(failures.map(\.location.line) == [#line - 2])
        #expect(failures.map(\.location.fileID) == ["\(#fileID)"])
    }

    @Test func everyRuleHasItsId() {
        #expect(ContractRule.allCases.map(\.id) == ["1.1", "1.3", "1.7", "1.8", "1.9", "2.12", "3.6", "3.13", "C.1"])
    }

    // MARK: Cadence's publishers and operators keep it

    static let cadencePublishers: [ContractCase] = [
        ContractCase("Just") { _ in checkPublisherContract { Just(1) } },
        ContractCase("Empty") { _ in checkPublisherContract { Empty<Int, Never>() } },
        ContractCase("Empty, never completing") { _ in
            checkPublisherContract { Empty<Int, Never>(completeImmediately: false) }
        },
        ContractCase("Fail") { _ in checkPublisherContract { Fail<Int, ContractTestError>(error: .failed) } },
        ContractCase("Sequence") { _ in checkPublisherContract { [1, 2, 3].publisher } },
        ContractCase("endless Sequence") { _ in checkPublisherContract { (1...).publisher } },
        ContractCase("Future, fulfilled at once") { _ in
            checkPublisherContract { Future<Int, Never> { promise in promise(.success(1)) } }
        },
        ContractCase("Future, fulfilled later") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                Future<Int, Never> { promise in
                    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(2))) { promise(.success(1)) }
                }
            }
        },
        ContractCase("Deferred") { _ in checkPublisherContract { Deferred { [1, 2].publisher } } },
        ContractCase("PassthroughSubject") { clock in
            checkPublisherContract(on: clock) { () -> PassthroughSubject<Int, Never> in
                let subject = PassthroughSubject<Int, Never>()
                Self.script(
                    on: clock, [{ subject.send(1) }, { subject.send(2) }, { subject.send(completion: .finished) }])
                return subject
            }
        },
        ContractCase("CurrentValueSubject") { clock in
            checkPublisherContract(on: clock) { () -> CurrentValueSubject<Int, Never> in
                let subject = CurrentValueSubject<Int, Never>(0)
                Self.script(
                    on: clock, [{ subject.send(1) }, { subject.send(2) }, { subject.send(completion: .finished) }])
                return subject
            }
        },
        ContractCase("Record") { _ in
            checkPublisherContract { Record<Int, Never>(output: [1, 2, 3], completion: .finished) }
        },
        ContractCase("cold TestPublisher") { clock in
            checkPublisherContract(on: clock) { clock.cold("-a-b-c|", values: ["a": 1, "b": 2, "c": 3]) }
        },
        ContractCase("hot TestPublisher") { clock in
            checkPublisherContract(on: clock) { clock.hot("-a-b-c|", values: ["a": 1, "b": 2, "c": 3]) }
        },
        ContractCase("map") { _ in checkPublisherContract { [1, 2, 3].publisher.map { $0 * 2 } } },
        ContractCase("tryMap") { _ in checkPublisherContract { [1, 2, 3].publisher.tryMap { $0 * 2 } } },
        ContractCase("compactMap") { _ in
            checkPublisherContract { [1, 2, 3].publisher.compactMap { $0 == 2 ? nil : $0 } }
        },
        ContractCase("filter") { _ in checkPublisherContract { [1, 2, 3, 4].publisher.filter { $0 % 2 == 0 } } },
        ContractCase("scan") { _ in checkPublisherContract { [1, 2, 3].publisher.scan(0, +) } },
        ContractCase("flatMap") { _ in checkPublisherContract { [1, 2].publisher.flatMap { [$0, $0 * 10].publisher } }
        },
        ContractCase("flatMap on the clock") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b|", values: ["a": 1, "b": 2]).flatMap { clock.cold("-x|", values: ["x": $0]) }
            }
        },
        ContractCase("merge") { _ in checkPublisherContract { [1, 2].publisher.merge(with: [3, 4].publisher) } },
        ContractCase("merge on the clock") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b|", values: ["a": 1, "b": 2]).merge(with: clock.cold("--c|", values: ["c": 3]))
            }
        },
        ContractCase("zip") { _ in checkPublisherContract { [1, 2].publisher.zip([3, 4].publisher) } },
        ContractCase("combineLatest") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b|", values: ["a": 1, "b": 2]).combineLatest(clock.cold("--c|", values: ["c": 3]))
            }
        },
        ContractCase("switchToLatest") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b|", values: ["a": 1, "b": 2]).map { clock.cold("--x|", values: ["x": $0]) }
                    .switchToLatest()
            }
        },
        ContractCase("debounce") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                clock.cold("-a-b----c|", values: ["a": 1, "b": 2, "c": 3])
                    .debounce(for: .milliseconds(2), scheduler: scheduler)
            }
        },
        ContractCase("delay") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                clock.cold("-a-b|", values: ["a": 1, "b": 2]).delay(for: .milliseconds(3), scheduler: scheduler)
            }
        },
        ContractCase("throttle") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                clock.cold("-a-b-c-d|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
                    .throttle(for: .milliseconds(3), scheduler: scheduler, latest: true)
            }
        },
        ContractCase("timeout") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                clock.cold("-a-b", values: ["a": 1, "b": 2]).timeout(.milliseconds(5), scheduler: scheduler)
            }
        },
        ContractCase("receive(on:)") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) { [1, 2, 3].publisher.receive(on: scheduler) }
        },
        ContractCase("subscribe(on:)") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) { [1, 2, 3].publisher.subscribe(on: scheduler) }
        },
        ContractCase("prefix") { _ in checkPublisherContract { (1...).publisher.prefix(3) } },
        ContractCase("prefix(while:)") { _ in checkPublisherContract { (1...).publisher.prefix { $0 < 4 } } },
        ContractCase("dropFirst") { _ in checkPublisherContract { [1, 2, 3].publisher.dropFirst() } },
        ContractCase("drop(while:)") { _ in checkPublisherContract { [1, 2, 3].publisher.drop { $0 < 2 } } },
        ContractCase("removeDuplicates") { _ in
            checkPublisherContract { [1, 1, 2, 2, 3].publisher.removeDuplicates() }
        },
        ContractCase("collect") { _ in checkPublisherContract { [1, 2, 3].publisher.collect() } },
        ContractCase("collect(2)") { _ in checkPublisherContract { [1, 2, 3].publisher.collect(2) } },
        ContractCase("reduce") { _ in checkPublisherContract { [1, 2, 3].publisher.reduce(0, +) } },
        ContractCase("count") { _ in checkPublisherContract { [1, 2, 3].publisher.count() } },
        ContractCase("first") { _ in checkPublisherContract { [1, 2, 3].publisher.first() } },
        ContractCase("last") { _ in checkPublisherContract { [1, 2, 3].publisher.last() } },
        ContractCase("output(in:)") { _ in checkPublisherContract { [1, 2, 3, 4].publisher.output(in: 1...2) } },
        ContractCase("append") { _ in checkPublisherContract { [1, 2].publisher.append(3, 4) } },
        ContractCase("prepend") { _ in checkPublisherContract { [1, 2].publisher.prepend(0) } },
        ContractCase("share") { _ in checkPublisherContract { [1, 2, 3].publisher.share() } },
        ContractCase("share on the clock") { clock in
            checkPublisherContract(on: clock) { clock.cold("-a-b|", values: ["a": 1, "b": 2]).share() }
        },
        ContractCase("multicast, autoconnect") { _ in
            checkPublisherContract { [1, 2].publisher.multicast { PassthroughSubject<Int, Never>() }.autoconnect() }
        },
        ContractCase("buffer") { _ in
            checkPublisherContract {
                [1, 2, 3].publisher.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
            }
        },
        ContractCase("buffer, keepFull") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])
                    .buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
            }
        },
        ContractCase("catch") { _ in
            checkPublisherContract { Fail<Int, ContractTestError>(error: .failed).catch { _ in [1, 2].publisher } }
        },
        ContractCase("retry") { _ in
            checkPublisherContract { [1, 2].publisher.setFailureType(to: ContractTestError.self).retry(2) }
        },
        ContractCase("retry of a failure") { _ in
            checkPublisherContract { Fail<Int, ContractTestError>(error: .failed).retry(2) }
        },
        ContractCase("replaceError") { _ in
            checkPublisherContract { Fail<Int, ContractTestError>(error: .failed).replaceError(with: 0) }
        },
        ContractCase("replaceEmpty") { _ in checkPublisherContract { Empty<Int, Never>().replaceEmpty(with: 0) } },
        ContractCase("handleEvents") { _ in checkPublisherContract { [1, 2].publisher.handleEvents() } },
        ContractCase("eraseToAnyPublisher") { _ in checkPublisherContract { [1, 2].publisher.eraseToAnyPublisher() } },
        ContractCase("ignoreOutput") { _ in checkPublisherContract { [1, 2].publisher.ignoreOutput() } },
        ContractCase("contains") { _ in checkPublisherContract { [1, 2].publisher.contains(2) } },
        ContractCase("min") { _ in checkPublisherContract { [3, 1, 2].publisher.min() } },
        ContractCase("allSatisfy") { _ in checkPublisherContract { [1, 2].publisher.allSatisfy { $0 > 0 } } },
        ContractCase("measureInterval") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                clock.cold("-a-b|", values: ["a": 1, "b": 2]).measureInterval(using: scheduler)
            }
        },
        ContractCase("collect(byTime:)") { clock in
            let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
            checkPublisherContract(on: clock) {
                clock.cold("-a-b---c|", values: ["a": 1, "b": 2, "c": 3])
                    .collect(.byTime(scheduler, .milliseconds(2)))
            }
        },
    ]

    /// The rest of Cadence's operators and publishers, so that every one of them is checked.
    static let moreCadencePublishers: [ContractCase] = [
        ContractCase("combineLatest of three") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a|", values: ["a": 1]).combineLatest(
                    clock.cold("--b|", values: ["b": 2]), clock.cold("-c|", values: ["c": 3]))
            }
        },
        ContractCase("combineLatest of four") { _ in
            checkPublisherContract { Just(1).combineLatest(Just(2), Just(3), Just(4)) }
        },
        ContractCase("merge of three") { _ in
            checkPublisherContract { [1].publisher.merge(with: [2].publisher, [3].publisher) }
        },
        ContractCase("merge of four") { _ in
            checkPublisherContract { [1].publisher.merge(with: [2].publisher, [3].publisher, [4].publisher) }
        },
        ContractCase("merge of five") { _ in
            checkPublisherContract {
                [1].publisher.merge(with: [2].publisher, [3].publisher, [4].publisher, [5].publisher)
            }
        },
        ContractCase("merge of six") { _ in
            checkPublisherContract {
                [1].publisher.merge(with: [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher)
            }
        },
        ContractCase("merge of seven") { _ in
            checkPublisherContract {
                [1].publisher.merge(
                    with: [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher, [7].publisher)
            }
        },
        ContractCase("merge of eight") { _ in
            checkPublisherContract {
                [1].publisher.merge(
                    with: [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher, [7].publisher,
                    [8].publisher)
            }
        },
        ContractCase("MergeMany") { _ in
            checkPublisherContract { Publishers.MergeMany([1].publisher, [2].publisher, [3].publisher) }
        },
        ContractCase("zip of three") { _ in
            checkPublisherContract { [1, 2].publisher.zip([3, 4].publisher, [5].publisher) }
        },
        ContractCase("zip of four") { _ in
            checkPublisherContract { [1, 2].publisher.zip([3, 4].publisher, [5].publisher, [6, 7].publisher) }
        },
        ContractCase("append a publisher") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a|", values: ["a": 1]).append(clock.cold("-b|", values: ["b": 2]))
            }
        },
        ContractCase("breakpoint") { _ in checkPublisherContract { [1, 2].publisher.breakpoint() } },
        ContractCase("print") { _ in
            checkPublisherContract { [1, 2].publisher.print("contract", to: DiscardingStream()) }
        },
        ContractCase("encode, decode") { _ in
            checkPublisherContract {
                [Item(id: 1), Item(id: 2)].publisher.encode(encoder: JSONEncoder())
                    .decode(type: Item.self, decoder: JSONDecoder())
            }
        },
        ContractCase("assertNoFailure") { _ in checkPublisherContract { [1, 2].publisher.assertNoFailure() } },
        ContractCase("tryCatch") { _ in
            checkPublisherContract { Fail<Int, ContractTestError>(error: .failed).tryCatch { _ in [1, 2].publisher } }
        },
        ContractCase("tryFilter") { _ in checkPublisherContract { [1, 2, 3].publisher.tryFilter { $0 != 2 } } },
        ContractCase("tryRemoveDuplicates") { _ in
            checkPublisherContract { [1, 1, 2].publisher.tryRemoveDuplicates { $0 == $1 } }
        },
        ContractCase("tryAllSatisfy") { _ in checkPublisherContract { [1, 2].publisher.tryAllSatisfy { $0 > 0 } } },
        ContractCase("max, tryMin(by:)") { _ in
            checkPublisherContract { [3, 1, 2].publisher.max() }
            checkPublisherContract { [3, 1, 2].publisher.tryMin { $0 < $1 } }
        },
        ContractCase("contains(where:), tryContains(where:)") { _ in
            checkPublisherContract { [1, 2].publisher.contains { $0 == 2 } }
            checkPublisherContract { [1, 2].publisher.tryContains { $0 == 2 } }
        },
        ContractCase("tryReduce") { _ in checkPublisherContract { [1, 2, 3].publisher.tryReduce(0, +) } },
        ContractCase("drop(untilOutputFrom:)") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])
                    .drop(untilOutputFrom: clock.cold("--x", values: ["x": ()]))
            }
        },
        ContractCase("prefix(untilOutputFrom:)") { clock in
            checkPublisherContract(on: clock) {
                clock.cold("-a-b-c|", values: ["a": 1, "b": 2, "c": 3])
                    .prefix(untilOutputFrom: clock.cold("----x", values: ["x": ()]))
            }
        },
        ContractCase("first(where:), last(where:)") { _ in
            checkPublisherContract { [1, 2, 3].publisher.first { $0 > 1 } }
            checkPublisherContract { [1, 2, 3].publisher.last { $0 < 3 } }
        },
        ContractCase("tryFirst(where:), tryLast(where:)") { _ in
            checkPublisherContract { [1, 2, 3].publisher.tryFirst { $0 > 1 } }
            checkPublisherContract { [1, 2, 3].publisher.tryLast { $0 < 3 } }
        },
        ContractCase("tryDrop(while:), tryPrefix(while:)") { _ in
            checkPublisherContract { [1, 2, 3].publisher.tryDrop { $0 < 2 } }
            checkPublisherContract { (1...).publisher.tryPrefix { $0 < 4 } }
        },
        ContractCase("makeConnectable, autoconnect") { _ in
            checkPublisherContract { [1, 2].publisher.makeConnectable().autoconnect() }
        },
        ContractCase("mapError, setFailureType") { _ in
            checkPublisherContract { Fail<Int, ContractTestError>(error: .failed).mapError { $0 as any Error } }
            checkPublisherContract { [1, 2].publisher.setFailureType(to: ContractTestError.self) }
        },
        ContractCase("map with key paths") { _ in
            checkPublisherContract { [Item(id: 1)].publisher.map(\.id) }
            checkPublisherContract { [Item(id: 1)].publisher.map(\.id, \.double) }
            checkPublisherContract { [Item(id: 1)].publisher.map(\.id, \.double, \.id) }
        },
        ContractCase("tryCompactMap, tryScan") { _ in
            checkPublisherContract { [1, 2, 3].publisher.tryCompactMap { $0 == 2 ? nil : $0 } }
            checkPublisherContract { [1, 2, 3].publisher.tryScan(0, +) }
        },
        ContractCase("SchedulerTimerPublisher on the clock") { clock in
            checkPublisherContract(on: clock) { clock.scheduler.timerPublisher(every: .ticks(1)).autoconnect() }
        },
        ContractCase("Optional.Publisher, Result.Publisher") { _ in
            checkPublisherContract { Optional(1).publisher }
            checkPublisherContract { Optional<Int>.none.publisher }
            checkPublisherContract { Result<Int, ContractTestError>.success(1).publisher }
            checkPublisherContract { Result<Int, ContractTestError>.failure(.failed).publisher }
        },
        ContractCase("Timer.TimerPublisher, not connected") { _ in
            checkPublisherContract { Timer.publish(every: 1, on: .current, in: .default) }
        },
        ContractCase("NotificationCenter.Publisher") { clock in
            checkPublisherContract(on: clock) { () -> NotificationCenter.Publisher in
                let center = NotificationCenter()
                let name = Notification.Name("contract")
                Self.script(
                    on: clock, [{ center.post(name: name, object: nil) }, { center.post(name: name, object: nil) }])
                return center.publisher(for: name)
            }
        },
    ]

    @Test(arguments: moreCadencePublishers)
    func theRestOfCadencesPublishersKeepTheContract(_ contractCase: ContractCase) async {
        let messages = await Self.offThePool {
            recordingFailures { contractCase.check(VirtualClock()) }.map(\.message)
        }
        #expect(messages == [])
    }

    /// Each case, here and above, runs on a thread of its own, not on Swift's cooperative pool: the check blocks its
    /// thread while the concurrent probe's threads run, and 64 cases blocking the pool's few threads at once starved
    /// the suite's asynchronous tests (their streams' values came after their 60-second timeouts under TSan).
    @Test(arguments: cadencePublishers)
    func cadencesPublishersKeepTheContract(_ contractCase: ContractCase) async {
        let messages = await Self.offThePool {
            recordingFailures { contractCase.check(VirtualClock()) }.map(\.message)
        }
        #expect(messages == [])
    }

    /// Runs `body` on a new thread and returns what it returns, leaving the cooperative pool free meanwhile.
    static func offThePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Schedules `steps` on `clock`, one a tick from the next tick on.
    static func script(on clock: VirtualClock, _ steps: [() -> Void]) {
        let scheduler = TestSchedulerOf<DispatchQueue>(clock: clock)
        for (index, step) in steps.enumerated() {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(index + 1)), step)
        }
    }
}

/// Behaves as `Just` on the thread that subscribed; a request from any other thread waits for `gate` and does
/// nothing (rule C.1, when the gate stays shut).
struct HangingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let gate: DispatchSemaphore

    final class Inner<S: Subscriber>: Subscription, @unchecked Sendable where S.Input == Int, S.Failure == Never {
        // `lock` guards `downstream`; `owner` and `gate` are immutable.
        let combineIdentifier = CombineIdentifier()
        private let owner = ObjectIdentifier(Thread.current)
        private let gate: DispatchSemaphore
        private let lock = NSLock()
        private var downstream: S?

        init(_ downstream: S, gate: DispatchSemaphore) {
            self.downstream = downstream
            self.gate = gate
        }

        func request(_: Subscribers.Demand) {
            guard ObjectIdentifier(Thread.current) == owner else {
                gate.wait()
                return
            }
            lock.lock()
            let downstream = self.downstream
            self.downstream = nil
            lock.unlock()
            guard let downstream else { return }
            _ = downstream.receive(1)
            downstream.receive(completion: .finished)
        }

        func cancel() {
            lock.lock()
            downstream = nil
            lock.unlock()
        }
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Inner(subscriber, gate: gate))
    }
}

/// A value for the key-path and coding operators.
private struct Item: Codable, Sendable {
    var id: Int
    var double: Int { id * 2 }
}

/// A text stream that keeps nothing, for `print(_:to:)`.
private struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}
