import Foundation
import Testing

// Reaches `FailureReporter.destination` (which framework `resolved` picked) with @testable, which debug builds allow.
#if DEBUG
@testable import CadenceTesting
#else
import CadenceTesting
#endif

@Suite("FailureReporter")
struct FailureReporterTests {
    private static let here = SourceCodeLocation(
        fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 3, column: 5
    )

    @Test("a reporter hands each failure to its closure")
    func closure() {
        let log = FailureLog()
        let reporter = FailureReporter { log.reporter.report($0) }
        reporter.report(ExpectationFailure(message: "m", location: Self.here))
        #expect(log.failures == [ExpectationFailure(message: "m", location: Self.here)])
    }

    @Test("resolved is the bound reporter when one is bound")
    func resolvedPicksBound() {
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            FailureReporter.resolved.report(ExpectationFailure(message: "bound", location: Self.here))
        }
        #expect(log.messages == ["bound"])
    }

    #if DEBUG
    @Test("resolved is Swift Testing while a Swift Testing test runs and none is bound")
    func resolvedPicksSwiftTesting() {
        #expect(FailureReporter.resolved.destination == .swiftTesting)
        #expect(
            FailureReporter.$current.withValue(FailureLog().reporter) { FailureReporter.resolved.destination }
                == .custom)
    }

    @Test("resolved is the test framework where no Swift Testing test runs on the task")
    func resolvedOffTest() async {
        let destination = await Task.detached { FailureReporter.resolved.destination }.value
        #if canImport(XCTest)
        #expect(destination == .xcTest)
        #else
        #expect(destination == .standardError)
        #endif
    }

    @Test("the shared reporters say which framework they report into")
    func destinations() {
        #expect(FailureReporter.standardError.destination == .standardError)
        #if canImport(XCTest)
        #expect(FailureReporter.xcTest.destination == .xcTest)
        #endif
        #expect(FailureReporter.swiftTesting.destination == .swiftTesting)
        #expect(FailureReporter { _ in }.destination == .custom)
    }
    #endif

    @Test("an expectation keeps the reporter it resolved when it was made")
    func keepsReporterOfExpect() {
        let first = FailureLog()
        let second = FailureLog()
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        do {
            let expectation = FailureReporter.$current.withValue(first.reporter) { expect(subject) }
            FailureReporter.$current.withValue(second.reporter) { expectation.toEmit(1) }
        }
        #expect(first.messages.count == 1)
        #expect(second.messages.isEmpty)
    }

    @Test("one failure is reported once: the first failed step, not the steps after it nor the events left over")
    func failedStepReportedOnce() {
        let failures = recordingFailures {
            expect([1, 2, 3].publisher).toEmit(5).thenEmit(6).thenFinish()
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("toEmit(5) failed") == true)
    }

    @Test("one failure is reported once: several late events make one failure")
    func lateEventsReportedOnce() {
        let log = FailureLog()
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        FailureReporter.$current.withValue(log.reporter) {
            expect(subject)
        }
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(log.messages.count == 1)
    }

    @Test("one failure is reported once: late events from many threads at once make one failure")
    func lateEventsFromThreadsReportedOnce() {
        let log = FailureLog()
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        FailureReporter.$current.withValue(log.reporter) {
            expect(subject)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { index in subject.send(index) }
        #expect(log.messages.count == 1)
    }

    @Test("an expectation that is read but never fails reports nothing")
    func readingReportsNothing() {
        expectNoFailures {
            let expectation = expect(Just(1)).toEmit(1).thenFinish()
            #expect(expectation.values == [1])
            #expect(!expectation.hasFailed)
        }
    }
}
