// The relay is internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG
@testable import CadenceTesting
import Foundation
import Testing

@Suite("FailureRelay")
struct FailureRelayTests {
    private static func failure(_ message: String) -> ExpectationFailure {
        ExpectationFailure(
            message: message,
            location: SourceCodeLocation(fileID: "A/B.swift", filePath: "/B.swift", line: 1, column: 1)
        )
    }

    @Test("records what it is sent, in order, on its own task; settle() waits for it")
    func order() async {
        let recorded = Synchronized<[String]>([])
        let relay = FailureRelay { failure in recorded.withLock { $0.append(failure.message) } }
        for index in 0..<20 { relay.send(Self.failure("\(index)")) }
        await relay.settle()
        #expect(recorded.withLock { $0 } == (0..<20).map(String.init))
    }

    @Test("settle() returns at once when nothing was sent")
    func settleEmpty() async {
        let relay = FailureRelay { _ in Issue.record("nothing was sent") }
        await relay.settle()
    }

    @Test("its task inherits the task-local values of the task that made the relay")
    func inheritsTaskLocals() async {
        let log = FailureLog()
        let seen = Synchronized<[Bool]>([])
        let relay = FailureReporter.$current.withValue(log.reporter) {
            FailureRelay { _ in seen.withLock { $0.append(FailureReporter.current != nil) } }
        }
        await onNewThread { relay.send(Self.failure("x")) }
        await relay.settle()
        #expect(seen.withLock { $0 } == [true])
    }

    @Test("failures sent from many threads at once are each recorded once")
    func manyThreads() async {
        let recorded = Synchronized<[String]>([])
        let relay = FailureRelay { failure in recorded.withLock { $0.append(failure.message) } }
        await onNewThread {
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<25 { relay.send(Self.failure("\(thread)-\(index)")) }
            }
        }
        await relay.settle()
        #expect(recorded.withLock { $0 }.count == 200)
        #expect(Set(recorded.withLock { $0 }).count == 200)
    }

    @Test("its task ends when the relay goes, releasing what it captured", .hangGuard)
    func endsWithRelay() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let token = Token { continuation.resume() }
            let relay = FailureRelay { _ in _ = token }
            relay.send(Self.failure("x"))
        }
    }
}

/// Calls its closure when it is released.
private final class Token: Sendable {
    private let onRelease: @Sendable () -> Void

    init(onRelease: @escaping @Sendable () -> Void) {
        self.onRelease = onRelease
    }

    deinit {
        onRelease()
    }
}
#endif
