import CadenceTesting
import Foundation

/// A test of a 300 ms debounce — three keystrokes at once, nothing for 299 ms, then the last one — on virtual time
/// and on a real `DispatchQueue`.
enum DebounceBenchmarks {
    /// On `DispatchQueue.test`: the clock jumps; nothing waits.
    static func virtualTime() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let expectation = expect(subject.debounce(for: .milliseconds(300), scheduler: scheduler), on: scheduler)
        subject.send("s")
        subject.send("sw")
        subject.send("swift")
        scheduler.advance(by: .milliseconds(299))
        guard expectation.values.isEmpty else { fatalError("the debounce emitted before 300 ms") }
        expectation.toEmit("swift", within: .ticks(1))
    }

    /// On a real queue, waiting as `XCTestExpectation`s would: a semaphore wait of 299 ms that must time out (an
    /// inverted expectation), then one until the value comes.
    static func realTime() {
        let queue = DispatchQueue(label: "CadenceBenchmarks.debounce")
        let subject = PassthroughSubject<String, Never>()
        let received = Received()
        let cancellable = subject.debounce(for: .milliseconds(300), scheduler: queue).sink { value in
            received.append(value)
        }
        subject.send("s")
        subject.send("sw")
        subject.send("swift")
        let sent = DispatchTime.now()
        // Nothing for 299 ms (an inverted expectation's wait), then "swift" (an expectation's wait). On a loaded
        // machine the first wait may wake after the value came: what counts is when the value arrived.
        if received.semaphore.wait(timeout: .now() + .milliseconds(299)) == .timedOut {
            guard received.semaphore.wait(timeout: .now() + .seconds(5)) == .success else {
                fatalError("the debounce did not emit within 5 s")
            }
        }
        guard let arrival = received.firstArrival, arrival.uptimeNanoseconds - sent.uptimeNanoseconds >= 299_000_000,
              received.values == ["swift"]
        else {
            fatalError("the debounce emitted \(received.values) too early")
        }
        cancellable.cancel()
    }

    /// Runs the virtual-time test once with a recording reporter: the benchmark must measure a passing test.
    static func check() {
        let failures = recordingFailures { virtualTime() }
        guard failures.isEmpty else { fatalError("the debounce benchmark fails:\n\(failures[0].message)") }
    }

    /// What the sink received, from the queue's thread.
    final class Received: @unchecked Sendable {
        // `lock` guards `storage`; the semaphore is thread-safe.
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
