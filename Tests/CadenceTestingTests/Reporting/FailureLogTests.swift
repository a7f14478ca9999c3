import CadenceTesting
import Foundation
import Testing

@Suite("FailureLog")
struct FailureLogTests {
    private static let here = SourceCodeLocation(
        fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 3, column: 5
    )

    @Test("a new log is empty")
    func startsEmpty() {
        let log = FailureLog()
        #expect(log.failures.isEmpty)
        #expect(log.messages.isEmpty)
    }

    @Test("its reporter appends each failure, in order, with its location")
    func appendsInOrder() {
        let log = FailureLog()
        log.reporter.report(ExpectationFailure(message: "first", location: Self.here))
        log.reporter.report(ExpectationFailure(message: "second", location: Self.here))
        #expect(log.messages == ["first", "second"])
        #expect(log.failures.map(\.location) == [Self.here, Self.here])
    }

    @Test("expectations made with its reporter bound report into it, even after the binding ends")
    func collectsLateFailures() {
        let log = FailureLog()
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        FailureReporter.$current.withValue(log.reporter) {
            expect(subject)
        }
        #expect(log.failures.isEmpty)
        subject.send(7)
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.hasPrefix("expect(PassthroughSubject<Int, Never>) received 1 event after") == true)
    }

    @Test("reporting from many threads at once keeps every failure")
    func threadSafe() {
        let log = FailureLog()
        let reporter = log.reporter
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<50 {
                reporter.report(ExpectationFailure(message: "\(thread)-\(index)", location: Self.here))
            }
        }
        #expect(log.failures.count == 400)
        #expect(Set(log.messages).count == 400)
    }
}
