// A broken Combine rule — misuse that Apple's Combine stops the process for — reported into the running test, which
// goes on; and, where no test can be found, the trap Combine has. `CombineRuleReporting` is reached with @testable.
#if DEBUG
import CadenceSupport
@testable import CadenceTesting
import Foundation
import Testing
#if canImport(XCTest)
import XCTest
#endif

/// A subscriber that asks for nothing: `request(.max(0))` as soon as it is subscribed, which `Just` does not allow.
private final class ZeroDemandSubscriber: Subscriber, @unchecked Sendable { // used on one thread at a time
    let combineIdentifier = CombineIdentifier()
    private(set) var values: [Int] = []
    private(set) var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.none)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

@Suite("A broken Combine rule in a test")
struct CombineRuleReportingTests {
    private static let justZeroDemand = """
        Just: request(_:) was called with max(0); a subscriber must request a positive demand. Apple's Combine stops \
        the process here; inside this test Cadence reported it and ignored the call.
        """

    @Test("a bound reporter gets it, the call is ignored, and the subscription still works")
    func boundReporter() {
        let subscriber = ZeroDemandSubscriber()
        let failures = recordingFailures {
            Just(7).subscribe(subscriber)
        }
        #expect(failures.map(\.message) == [Self.justZeroDemand])
        #expect(subscriber.values.isEmpty)
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.values == [7])
    }

    @Test("the Swift Testing test on this task gets it, at the test's declaration", .quietKnownIssues)
    func swiftTestingTest() throws {
        let declaration = try #require(Test.current?.sourceLocation)
        withKnownIssue {
            Just(7).subscribe(ZeroDemandSubscriber())
        } matching: { issue in
            issue.comments.map(\.rawValue) == [Self.justZeroDemand] && issue.sourceLocation == declaration
        }
    }

    @Test("a virtual-time session reports it at the session's call")
    func virtualTimeSession() {
        let line = #line + 2
        let failures = recordingFailures {
            withVirtualTime { _ in
                Just(7).subscribe(ZeroDemandSubscriber())
            }
        }
        #expect(failures.map(\.message) == [Self.justZeroDemand])
        #expect(failures.map(\.location.line) == [line])
    }

    @Test("on a thread of its own, outside any test's task, no test can be found: the rule traps as in Combine")
    func noTestOnAPlainThread() {
        let reported = LockedValue<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            reported.set(CombineRuleReporting.report("Just: a rule"))
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 600) == .success)
        #expect(reported.get() == false)
    }

    #if !canImport(Combine) // the rule's own trap: Apple's Combine stops the process with a message of its own
    @Test("outside any test, as in production code, the broken rule stops the process with its message")
    func productionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Just(7).subscribe(ZeroDemandSubscriber())
        }
        let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(
            output.contains(
                "Just: request(_:) was called with max(0); a subscriber must request a positive demand"))
    }

    // The two orders, each in a process of its own, so that nothing of CadenceTesting has run there before: linking
    // CadenceTesting installs its handler when the process starts, and whether an `expect` ran first changes nothing.

    @Test("before any expect has run in the process, a broken rule is reported into the test, not a trap")
    func reportedBeforeAnyExpect() async {
        await #expect(processExitsWith: .success) {
            CombineRuleReportingTests.breakJustsRuleWithABoundReporter()
        }
    }

    @Test("after an expect has run in the process, a broken rule is reported into the test the same way")
    func reportedAfterAnExpect() async {
        await #expect(processExitsWith: .success) {
            expect(Just(7)).toEmit(7).thenFinish()
            CombineRuleReportingTests.breakJustsRuleWithABoundReporter()
        }
    }

    #if canImport(XCTest)
    @Test("in an XCTest test case, before any expect has run in the process, a broken rule fails that test case")
    func xcTestCaseBeforeAnyExpect() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            // On a thread of its own, as XCTest runs its cases: no Swift Testing test is running there.
            let testCase = RuleBreakingTestCase(name: "testBreaksJustsRule") { _ in
                Just(7).subscribe(ZeroDemandSubscriber())
            }
            let done = DispatchSemaphore(value: 0)
            Thread {
                testCase.run()
                done.signal()
            }.start()
            if done.wait(timeout: .now() + 600) == .timedOut { exit(EXIT_FAILURE) }
            print(testCase.failures.joined(separator: "\n"))
        }
        let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
        #expect(output == "failed - \(Self.justZeroDemand)\n")
    }
    #endif

    /// Breaks `Just`'s rule with a reporter bound by hand — not through `recordingFailures`, an `expect` or a
    /// session — and exits with a failure unless the reporter got exactly the rule's report.
    private static func breakJustsRuleWithABoundReporter() {
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            Just(7).subscribe(ZeroDemandSubscriber())
        }
        if log.failures.map(\.message) != [justZeroDemand] { exit(EXIT_FAILURE) }
    }
    #endif
}

#if !canImport(Combine) && canImport(XCTest)
/// An XCTest test case run by hand, which keeps the failures XCTest is asked to record instead of failing.
private final class RuleBreakingTestCase: XCTestCase, @unchecked Sendable { // read once its run has returned
    private(set) var failures: [String] = []

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        failures.append(description)
    }
}
#endif

/// A value shared with one other thread.
private final class LockedValue<Value: Sendable>: Sendable {
    private let value: Locked<Value>
    init(_ initial: Value) { value = Locked(initial) }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func get() -> Value { value.withLock { $0 } }
}
#endif
