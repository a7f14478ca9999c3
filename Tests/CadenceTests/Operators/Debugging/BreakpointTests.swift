import Cadence
import Foundation
import Testing

@Suite("Publishers.Breakpoint")
struct BreakpointTests {
    typealias Events = [Event<Int, TestError>]

    @Test func closuresThatReturnFalseLetEverythingThrough() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        var asked: [String] = []
        publisher.breakpoint(
            receiveSubscription: {
                asked.append("subscription(\($0))")
                return false
            },
            receiveOutput: {
                asked.append("output(\($0))")
                return false
            },
            receiveCompletion: {
                asked.append("completion(\($0))")
                return false
            }
        ).subscribe(subscriber)

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)] as Events)
        #expect(asked == ["subscription(TestSubscription)", "output(1)", "output(2)", "completion(finished)"])
    }

    @Test func failurePassesThroughWhenTheClosureReturnsFalse() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        publisher.breakpoint(receiveCompletion: { _ in false }).subscribe(subscriber)

        publisher.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))] as Events)
    }

    @Test func breakpointOnErrorLetsFinishedThrough() {
        let publisher = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let breakpoint = publisher.breakpointOnError()
        breakpoint.subscribe(subscriber)

        publisher.send(4)
        publisher.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)] as Events)
        #expect(breakpoint.receiveSubscription == nil)
        #expect(breakpoint.receiveOutput == nil)
        #expect(breakpoint.receiveCompletion?(.finished) == false)
        #expect(breakpoint.receiveCompletion?(.failure(.oops)) == true)
    }

    @Test func demandAndCancellationGoStraightToTheUpstream() {
        SingleUpstreamOperatorChecks.demandAndCancellationGoStraightToTheUpstream { $0.breakpoint() }
    }

    @Test func reflection() {
        let publisher = DrivenPublisher<Int, TestError>()
        publisher.breakpoint().subscribe(TestSubscriber<Int, TestError>())
        expectSlicingReflection(of: publisher.subscription.downstream, description: "Breakpoint")
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func aClosureReturningTrueRaisesSIGTRAP() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            Just(1).breakpoint(receiveOutput: { $0 == 1 }).subscribe(TestSubscriber<Int, Never>())
        }
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    /// A handler that catches `SIGTRAP` and returns (as the Swift runtime's backtracer does after its report) does
    /// not let the process go on: with no debugger attached, it still ends by the signal.
    @Test func aHandlerThatReturnsDoesNotKeepTheProcessAlive() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            signal(SIGTRAP) { _ in }
            Just(1).breakpoint(receiveOutput: { $0 == 1 }).subscribe(TestSubscriber<Int, Never>())
        }
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func breakpointOnErrorRaisesSIGTRAPOnFailure() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let publisher = DrivenPublisher<Int, TestError>()
            publisher.breakpointOnError().subscribe(TestSubscriber<Int, TestError>())
            publisher.send(completion: .failure(.oops))
        }
    }
    #endif
}
