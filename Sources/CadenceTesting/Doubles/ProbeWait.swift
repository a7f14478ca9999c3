import CadenceSupport
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The threads a probe's bounded wait waits for, and the time each has spent queued for a CPU.
///
/// `checkPublisherContract` gives up on a probe whose thread has not returned after its limit. On a machine loaded by
/// other work (a CI runner building beside the tests, the rest of a parallel test run under ThreadSanitizer) a thread
/// that is making progress can spend most of that time waiting for a CPU; counted, it would make a correct publisher
/// break rule C.1. So the limit counts only the time the slowest of the probe's threads was not kept waiting for a
/// CPU. On Linux that is read from `/proc/self/task/<tid>/schedstat` (its second field: nanoseconds spent on a run
/// queue); where it cannot be read, nothing is discounted and the limit is on the wall clock. Under ThreadSanitizer
/// every limit is six times as long (``sanitizerFactor``).
final class ProbeThreads: Sendable {
    /// The enrolled threads' ids, each with the run-queue time it had when the wait last looked.
    private let threads = Locked<[Int32: UInt64]>([:])
    /// The run-queue time of a thread, in nanoseconds, if it can be read; replaced by tests.
    private let queuedTime: @Sendable (Int32) -> UInt64?

    init(queuedTime: @escaping @Sendable (Int32) -> UInt64? = ProbeThreads.queuedNanoseconds) {
        self.queuedTime = queuedTime
    }

    /// Adds the calling thread (once).
    func enrolCurrentThread() {
        guard let id = Self.currentThreadID() else { return }
        threads.withLock { threads in
            if threads[id] == nil { threads[id] = 0 }
        }
    }

    /// The most time any enrolled thread has spent queued for a CPU since the last call (since it was enrolled, for a
    /// thread enrolled meanwhile).
    func queuedSinceLastLook() -> UInt64 {
        let ids = threads.withLock { Array($0.keys) }
        var now: [Int32: UInt64] = [:]
        for id in ids {
            if let queued = queuedTime(id) { now[id] = queued }
        }
        return threads.withLock { threads in
            var most: UInt64 = 0
            for (id, queued) in now {
                let before = threads[id] ?? 0
                if queued > before { most = max(most, queued - before) }
                threads[id] = queued
            }
            return most
        }
    }

    /// Waits for `done` until the probe's threads have had `limit` of time not spent queued for a CPU, or at most
    /// `backstop` times `limit` in all; false if `done` was not signalled by then.
    func wait(for done: DispatchSemaphore, limit: Duration, backstop: Int = 10) -> Bool {
        let limit = Self.nanoseconds(limit) * UInt64(Self.sanitizerFactor)
        let start = DispatchTime.now().uptimeNanoseconds
        var last = start
        var counted: UInt64 = 0
        while true {
            let slice = min(limit - counted, 100_000_000)
            if done.wait(timeout: .now() + .nanoseconds(Int(slice))) == .success { return true }
            let now = DispatchTime.now().uptimeNanoseconds
            let elapsed = now - last
            counted += elapsed - min(elapsed, queuedSinceLastLook())
            last = now
            if counted >= limit || now - start >= limit * UInt64(backstop) { return false }
        }
    }

    /// How many times longer a wait is in a program built with ThreadSanitizer (found by its runtime's
    /// `__tsan_init`, which an instrumented program exports): 6, else 1. Its runtime can stop every thread of the
    /// process for seconds while one thread frees memory (the threads wait on its `FindSlotAndLock` behind a
    /// `FreeRange`); under a whole test suite's parallel load a correct probe's thread was held up past 10 seconds
    /// three times in thirteen runs, and run-queue time does not show a thread blocked that way.
    static let sanitizerFactor: Int = {
        let program = dlopen(nil, RTLD_NOW)
        defer { if let program { dlclose(program) } }
        return dlsym(program, "__tsan_init") == nil ? 1 : 6
    }()

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// The calling thread's kernel id, on Linux: `/proc/thread-self` links to `<pid>/task/<tid>`.
    static func currentThreadID() -> Int32? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { Int32($0) }
        #else
        return nil
        #endif
    }

    /// The nanoseconds thread `id` of this process has spent on a run queue, waiting for a CPU.
    @Sendable static func queuedNanoseconds(_ id: Int32) -> UInt64? {
        #if os(Linux)
        guard let file = fopen("/proc/self/task/\(id)/schedstat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ")
        return fields.count >= 2 ? UInt64(fields[1]) : nil
        #else
        return nil
        #endif
    }
}
