import CadenceTesting
import Foundation

#if canImport(XCTest)
import XCTest
#endif

/// A test of a 300 ms debounce — three keystrokes at once, nothing for 299 ms, then the last one — on virtual time
/// and on a real `DispatchQueue` waited for with `XCTestExpectation`s.
public enum DebounceBenchmarks {
    /// The virtual-time test, `tests` times. Returns the number of tests that saw "swift" and nothing before it.
    public static func virtualTime(tests: Int) -> Int {
        var passed = 0
        for _ in 0..<tests where virtualTime() { passed += 1 }
        return passed
    }

    /// On `DispatchQueue.test`: the clock jumps; nothing waits.
    static func virtualTime() -> Bool {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let expectation = expect(subject.debounce(for: .milliseconds(300), scheduler: scheduler), on: scheduler)
        subject.send("s")
        subject.send("sw")
        subject.send("swift")
        scheduler.advance(by: .milliseconds(299))
        guard expectation.values.isEmpty else { return false }
        expectation.toEmit("swift", within: .ticks(1))
        return true
    }

    /// The same test by hand, `tests` times: the debounce's logic on an integer clock, with no publisher, scheduler
    /// or expectation (the limit). Returns the number of tests that saw "swift" and nothing before it.
    public static func handWritten(tests: Int) -> Int {
        var passed = 0
        for _ in 0..<tests where handWritten() { passed += 1 }
        return passed
    }

    /// Three keystrokes at millisecond 0: the last one is due at 300; 299 ms pass with nothing, then 1 ms more.
    static func handWritten() -> Bool {
        var now = 0
        var pending: (text: String, due: Int)?
        var received: [String] = []
        func advance(by milliseconds: Int) {
            now += milliseconds
            if let due = pending, due.due <= now {
                received.append(due.text)
                pending = nil
            }
        }
        for text in ["s", "sw", "swift"] { pending = (text, now + 300) }
        advance(by: 299)
        guard received.isEmpty else { return false }
        advance(by: 1)
        return received == ["swift"]
    }

    /// Runs the virtual-time test once with a recording reporter: the benchmark must measure a passing test. Returns
    /// the first failure's message, if any.
    public static func failure() -> String? {
        var passed = false
        let failures = recordingFailures { passed = virtualTime() }
        return failures.first?.message ?? (passed ? nil : "the debounce emitted before 300 ms")
    }

    /// How the real-time test waits: with XCTest's `XCTestExpectation` and `XCTWaiter` where XCTest links into an
    /// executable, else with a semaphore.
    public static let realTimeWaiting: String = {
        #if canImport(XCTest)
        "XCTestExpectation + XCTWaiter"
        #else
        "DispatchSemaphore"
        #endif
    }()

    /// The real-time test, `tests` times. Returns the number of tests that saw "swift", after 299 ms, and nothing
    /// before it.
    public static func realTime(tests: Int) -> Int {
        var passed = 0
        for _ in 0..<tests where realTime() { passed += 1 }
        return passed
    }

    /// On a real queue, waiting as an XCTest test does: an inverted expectation waited for 299 ms (nothing may come),
    /// then an expectation for the value.
    static func realTime() -> Bool {
        let queue = DispatchQueue(label: "CadenceBenchmarks.debounce")
        let subject = PassthroughSubject<String, Never>()
        let received = Received()
        #if canImport(XCTest)
        let nothingYet = XCTestExpectation(description: "nothing for 299 ms")
        nothingYet.isInverted = true
        let value = XCTestExpectation(description: "the debounced value")
        #endif
        let cancellable = subject.debounce(for: .milliseconds(300), scheduler: queue).sink { text in
            received.append(text)
            #if canImport(XCTest)
            nothingYet.fulfill()
            value.fulfill()
            #endif
        }
        subject.send("s")
        subject.send("sw")
        subject.send("swift")
        let sent = DispatchTime.now()
        #if canImport(XCTest)
        // On a loaded machine the inverted wait may wake after the value came (`.invertedFulfillment`): what counts
        // is when the value arrived, checked below.
        _ = XCTWaiter().wait(for: [nothingYet], timeout: 0.299)
        let waited = XCTWaiter().wait(for: [value], timeout: 5)
        guard waited == .completed else { return false }
        #else
        if received.semaphore.wait(timeout: .now() + .milliseconds(299)) == .timedOut {
            guard received.semaphore.wait(timeout: .now() + .seconds(5)) == .success else { return false }
        }
        #endif
        cancellable.cancel()
        guard let arrival = received.firstArrival else { return false }
        return arrival.uptimeNanoseconds - sent.uptimeNanoseconds >= 299_000_000 && received.values == ["swift"]
    }

    /// What the sink received, from the queue's thread.
    final class Received: @unchecked Sendable {
        // `lock` guards `storage` and `arrival`; the semaphore is thread-safe.
        private let lock = NSLock()
        private var storage: [String] = []
        private var arrival: DispatchTime?
        let semaphore = DispatchSemaphore(value: 0)

        func append(_ value: String) {
            let now = DispatchTime.now()
            lock.withLock {
                storage.append(value)
                if arrival == nil { arrival = now }
            }
            semaphore.signal()
        }

        var values: [String] { lock.withLock { storage } }

        /// When the first value arrived.
        var firstArrival: DispatchTime? { lock.withLock { arrival } }
    }
}
