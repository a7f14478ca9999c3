import Cadence
import Dispatch
import Testing

/// `Future.value` awaited while the promise is fulfilled on another thread, and while the waiting task is cancelled:
/// every wait ends (no lost wake-up), with the value or `CancellationError`, and the continuation resumes once
/// (a second resumption would trap).
@Suite("Future.value under races")
struct FutureValueRaceTests {
    @Test func promiseOnAnotherThreadAlwaysWakesTheWaiters() async {
        for round in 0..<100 {
            let promise = PromiseBox<Int, Never>()
            let future = UncheckedSendable(Future<Int, Never> { promise.store($0) })
            let waiters = (0..<3).map { _ in Task { await future.value.value } }
            DispatchQueue.global().async { promise.fulfill(.success(round)) }
            for waiter in waiters {
                let outcome = await boundedResult(of: waiter, within: 10)
                #expect(outcome == round)
            }
        }
    }

    @Test func cancelRacingThePromiseEndsEveryWaitOnce() async {
        for round in 0..<100 {
            let promise = PromiseBox<Int, TestError>()
            let future = UncheckedSendable(Future<Int, TestError> { promise.store($0) })
            let waiter = Task { () -> String in
                do {
                    return "value \(try await future.value.value)"
                } catch is CancellationError {
                    return "cancelled"
                } catch {
                    return "error \(error)"
                }
            }
            DispatchQueue.global().async { promise.fulfill(.success(round)) }
            waiter.cancel()
            let outcome = await boundedResult(of: waiter, within: 10)
            #expect(outcome == "value \(round)" || outcome == "cancelled")
        }
    }
}

/// Holds a future's promise so another thread can fulfil it.
final class PromiseBox<Output, Failure: Error>: @unchecked Sendable { // `lock` guards `promise`
    private let lock = TestLock()
    private var promise: ((Result<Output, Failure>) -> Void)?

    func store(_ promise: @escaping (Result<Output, Failure>) -> Void) {
        lock.withLock { self.promise = promise }
    }

    func fulfill(_ result: Result<Output, Failure>) {
        let promise = lock.withLock { self.promise }
        promise?(result)
    }
}

/// The task's value, or nil when it has not finished within `seconds` (a lost wake-up): the test goes on instead of
/// hanging.
func boundedResult<Value: Sendable>(of task: Task<Value, Never>, within seconds: Double) async -> Value? {
    let once = ResumeOnce<Value?>()
    return await withCheckedContinuation { continuation in
        once.install(continuation)
        Task { once.resume(with: await task.value) }
        Task {
            try? await Task.sleep(for: .seconds(seconds))
            once.resume(with: nil)
        }
    }
}

/// Resumes a continuation with the first result handed to it.
final class ResumeOnce<Value: Sendable>: @unchecked Sendable { // `lock` guards `continuation`
    private let lock = TestLock()
    private var continuation: CheckedContinuation<Value, Never>?

    func install(_ continuation: CheckedContinuation<Value, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func resume(with value: Value) {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: value)
    }
}
