import Cadence
import Foundation
import Testing

/// A subscriber that sends to the subject it observes, from inside `receive(_:)`: Combine delivers the new value at
/// once, nested in the delivery of the one before, so each level of re-entrance is a level of the thread's stack.
/// These chains go 5,000 levels deep on a thread with an 8 MB stack — XCTest's main thread and Linux's default for a
/// new thread — which the send path of 2,100 bytes a level in debug builds could not (it held about 4,000; the
/// send path now takes 1,500: Guides/LinuxAndCI.md, "Re-entrant sends and the stack"). Under ThreadSanitizer they go
/// 2,000 levels, well within what its runtime's shadow stack holds (`reentrancyDepth`).
@Suite("Re-entrant sends: depth")
struct ReentrantSendDepthTests {
    static let depth = reentrancyDepth(5_000)
    static let stackSize = 8 << 20

    @Test func passthroughSubjectSinkSendingToItsOwnSubject() {
        let probe = ReentrancyProbe()
        let ran = ReentrancyProbe.onThread(stackSize: Self.stackSize) {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.sink { value in
                if probe.enterLevel(limit: Self.depth) { subject.send(value + 1) }
            }
            subject.send(0)
            cancellable.cancel()
        }
        #expect(ran)
        #expect(probe.depth == Self.depth, "\(probe.bytesPerLevel) bytes a level")
    }

    @Test func currentValueSubjectSinkSendingToItsOwnSubject() {
        let probe = ReentrancyProbe()
        let ran = ReentrancyProbe.onThread(stackSize: Self.stackSize) {
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellable = subject.sink { value in
                if probe.enterLevel(limit: Self.depth) { subject.send(value + 1) }
            }
            cancellable.cancel()
        }
        #expect(ran)
        #expect(probe.depth == Self.depth, "\(probe.bytesPerLevel) bytes a level")
    }
}
