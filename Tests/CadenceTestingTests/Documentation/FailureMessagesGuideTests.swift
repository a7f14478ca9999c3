// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
import CadenceTesting
import Dispatch
import Foundation
import Testing

// Every example of Guides/FailureMessages.md, as the guide shows it: the same code, and the exact text it reports.
// Change one, change the other.

private struct User: Equatable {
    var id: Int
    var name: String
    var email: String
}

private enum APIError: Error, Equatable {
    case offline
    case timeout
}

private struct Profile: Equatable {
    var name: String
    var followers: Int
    var verified: Bool
}

private enum State: Equatable {
    case loading
    case loaded(Profile)
    case failed(APIError)
}

/// Sends all its values at once, whatever the subscriber asked for: a publisher that breaks the contract.
private struct Firehose: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let values: [Int]

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        for value in values { _ = subscriber.receive(value) }
        subscriber.receive(completion: .finished)
    }
}

@Suite("Guides/FailureMessages.md")
struct FailureMessagesGuideTests {
    @Test func aWrongValue() {
        expectFailures([
            """
            toEmit([1, 2, 3]) failed: value 2 of 3 differs: expected 2, received 5 at tick 2.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2, 3])
                  .thenFinish(within: .ticks(5))  (not checked)

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2, 3])
              →     2  5             2         toEmit([1, 2, 3])
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, Never>()
            clock.schedule(after: .ticks(1)) { subject.send(1) }
            clock.schedule(after: .ticks(2)) { subject.send(5) }
            clock.schedule(after: .ticks(3)) { subject.send(3) }

            expect(subject, on: clock).toEmit([1, 2, 3]).thenFinish(within: .ticks(5))
        }
    }

    @Test func aFailureInALaterStep() {
        expectFailures([
            """
            thenEmit([2, 3]) failed: value 2 of 2 differs: expected 3, received 4 at tick 3.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1)
              ✗   .thenEmit([2, 3])
                  .thenFinish()  (not checked)

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit(1)
                    2  2             2         thenEmit([2, 3])
              →     3  4             3         thenEmit([2, 3])
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, Never>()
            clock.schedule(after: .ticks(1)) { subject.send(1) }
            clock.schedule(after: .ticks(2)) { subject.send(2) }
            clock.schedule(after: .ticks(3)) { subject.send(4) }

            expect(subject, on: clock).toEmit(1).thenEmit([2, 3]).thenFinish()
        }
    }

    @Test func aMissingValueOnAnIdleClock() {
        expectFailures([
            """
            toEmit([1, 2, 3]) failed: value 3 of 3 (3) never arrived: the clock went idle at tick 2 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2, 3])
                  .thenFinish()  (not checked)

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2, 3])
                    2  2             2         toEmit([1, 2, 3])
              →     2  (nothing)     3         toEmit([1, 2, 3])
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, Never>()
            clock.schedule(after: .ticks(1)) { subject.send(1) }
            clock.schedule(after: .ticks(2)) { subject.send(2) }

            expect(subject, on: clock).toEmit([1, 2, 3]).thenFinish()
        }
    }

    @Test func aLateValueWithABudget() {
        expectFailures([
            """
            toEmit("ready", within: .ticks(5)) failed: the value ("ready") did not arrive within 5 ticks (by tick 5); it arrived at tick 8, 3 ticks late.

                expect(PassthroughSubject<String, Never>)
              ✗   .toEmit("ready", within: .ticks(5))

                 tick  received      expected
                    0  subscription
              →     5  (nothing)     "ready"   toEmit("ready", within: .ticks(5))
                    8  "ready"
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<String, Never>()
            clock.schedule(after: .ticks(8)) { subject.send("ready") }

            expect(subject, on: clock).toEmit("ready", within: .ticks(5))
        }
    }

    @Test func anOverFulfilment() {
        expectFailures([
            """
            expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 3, finished.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit([1, 2])

                 received      expected
                 subscription
                 1             1          toEmit([1, 2])
                 2             2          toEmit([1, 2])
              →  3             (no step)
                 finished      (no step)
            """,
        ]) {
            expect([1, 2, 3].publisher).toEmit([1, 2])
        }
    }

    @Test func aLateEventAfterTheChainEnded() {
        expectFailures([
            """
            expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2 at tick 4.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1)

                 tick  received      expected
                    0  subscription
                    1  1             1          toEmit(1)
              →     4  2             (no step)
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, Never>()
            clock.schedule(after: .ticks(1)) { subject.send(1) }
            clock.schedule(after: .ticks(4)) { subject.send(2) }

            expect(subject, on: clock).toEmit(1)
            clock.advance(by: .ticks(10))
        }
    }

    @Test func aStructDifference() {
        expectFailures([
            """
            toEmit(User(id: 1, name: "Blob", email: "blob@example.com")) failed: the value differs: expected User(id: 1, name: "Blob", email: "blob@example.com"), received User(id: 1, name: "Blob", email: "blob@example.org").

                expect(Just<User>)
              ✗   .toEmit(User(id: 1, name: "Blob", email: "blob@example.com"))
                  .thenFinish()  (not checked)

                 received                                  expected
                 subscription
              →  User(id: 1, name: "Blob", email: "blob@…  User(id: 1, name: "Blob", email: "blob@…  toEmit(User(id: 1, name: "Blob", email: "blob@example.com"))
                 finished

            Difference (- expected, + received):
              User(
                id: 1
                name: "Blob"
            -   email: "blob@example.com"
            +   email: "blob@example.org"
              )
            """,
        ]) {
            let blob = User(id: 1, name: "Blob", email: "blob@example.com")
            let received = User(id: 1, name: "Blob", email: "blob@example.org")

            expect(Just(received)).toEmit(blob).thenFinish()
        }
    }

    @Test func anArrayDifference() {
        expectFailures([
            """
            toEmit(["milk", "eggs", "flour", "butter", "jam", "tea"]) failed: the value differs: expected ["milk", "eggs", "flour", "butter", "jam", "tea"], received ["milk", "eggs", "bread", "butter", "jam", "tea"] at tick 3.

                expect(PassthroughSubject<Array<String>, Never>)
              ✗   .toEmit(["milk", "eggs", "flour", "butter", "jam", "tea"])

                 tick  received                                  expected
                    0  subscription
              →     3  ["milk", "eggs", "bread", "butter", "ja…  ["milk", "eggs", "flour", "butter", "ja…  toEmit(["milk", "eggs", "flour", "butter", "jam", "tea"])

            Difference (- expected, + received):
              [
                "milk"
                "eggs"
            -   "flour"
            +   "bread"
                "butter"
                "jam"
                "tea"
              ]
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<[String], Never>()
            clock.schedule(after: .ticks(3)) { subject.send(["milk", "eggs", "bread", "butter", "jam", "tea"]) }

            expect(subject, on: clock).toEmit(["milk", "eggs", "flour", "butter", "jam", "tea"])
        }
    }

    @Test func aTextDifference() {
        expectFailures([
            #"""
            toEmit("Dear Blob,\nsee you at the usual place\non Friday.\nBlob Jr.") failed: the value differs: expected "Dear Blob,\nsee you at the usual place\non Friday.\nBlob Jr.", received "Dear Blob,\nsee you at the usual place\non Saturday.\nBlob Jr.".

                expect(Just<String>)
              ✗   .toEmit("Dear Blob,\nsee you at the usual place\non Friday.\nBlob Jr.")

                 received                                  expected
                 subscription
              →  "Dear Blob,\nsee you at the usual place…  "Dear Blob,\nsee you at the usual place…  toEmit("Dear Blob,\nsee you at the usual place\non Friday.\nBlob Jr.")
                 finished

            Difference (- expected, + received):
              """
              Dear Blob,
              see you at the usual place
            - on Friday.
            + on Saturday.
              Blob Jr.
              """
            """#,
        ]) {
            let expected = "Dear Blob,\nsee you at the usual place\non Friday.\nBlob Jr."
            let received = "Dear Blob,\nsee you at the usual place\non Saturday.\nBlob Jr."

            expect(Just(received)).toEmit(expected)
        }
    }

    @Test func aMissingValueWithoutAClock() {
        expectFailures([
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: nothing more was delivered synchronously, and there is no virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(CurrentValueSubject<Int, Never>)
              ✗   .toEmit([1, 2])

                 received      expected
                 subscription
                 1             1         toEmit([1, 2])
              →  (nothing)     2         toEmit([1, 2])
            """,
        ]) {
            let subject = CurrentValueSubject<Int, Never>(1)

            expect(subject).toEmit([1, 2])
        }
    }

    @Test func aBrokenContract() {
        expectFailures([
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the publisher sent 2 beyond the demand requested (.max(1) in all), which breaks the subscription contract (rule 1.1).

                expect(Firehose)
              ✗   .toEmit([1, 2])

                 received             expected
                 subscription
                 1                    1         toEmit([1, 2])
              →  2 (contract broken)  2         toEmit([1, 2])
                 3 (contract broken)
                 finished
            """,
        ]) {
            expect(Firehose(values: [1, 2, 3]), demand: .max(1)).toEmit([1, 2])
        }
    }

    @Test func anEarlyValue() {
        expectFailures([
            """
            toEmitNothing(for: .ticks(299)) failed: expected nothing through tick 299, received "swift" at tick 150, 150 ticks early.

                expect(PassthroughSubject<String, Never>)
              ✗   .toEmitNothing(for: .ticks(299))
                  .thenEmit("swift")  (not checked)

                 tick  received      expected
                    0  subscription
              →   150  "swift"       nothing through tick 299  toEmitNothing(for: .ticks(299))
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<String, Never>()
            clock.schedule(after: .ticks(150)) { subject.send("swift") }

            expect(subject, on: clock).toEmitNothing(for: .ticks(299)).thenEmit("swift")
        }
    }

    @Test func aFailureInsteadOfTheFinish() {
        expectFailures([
            """
            thenFinish() failed: expected finished, received failure(APIError.offline) at tick 3.

                expect(PassthroughSubject<Int, APIError>)
              ✓   .toEmit(1)
              ✗   .thenFinish()

                 tick  received                   expected
                    0  subscription
                    1  1                          1         toEmit(1)
              →     3  failure(APIError.offline)  finished  thenFinish()
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, APIError>()
            clock.schedule(after: .ticks(1)) { subject.send(1) }
            clock.schedule(after: .ticks(3)) { subject.send(completion: .failure(.offline)) }

            expect(subject, on: clock).toEmit(1).thenFinish()
        }
    }

    @Test func theFinishInsteadOfAFailure() {
        expectFailures([
            """
            toFail(with: APIError.offline) failed: expected failure(APIError.offline), received finished at tick 2.

                expect(PassthroughSubject<Int, APIError>)
              ✗   .toFail(with: APIError.offline)

                 tick  received      expected
                    0  subscription
              →     2  finished      failure(APIError.offline)  toFail(with: APIError.offline)
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, APIError>()
            clock.schedule(after: .ticks(2)) { subject.send(completion: .finished) }

            expect(subject, on: clock).toFail(with: APIError.offline)
        }
    }

    @Test func aDifferentError() {
        expectFailures([
            """
            toFail(with: APIError.offline) failed: expected failure(APIError.offline), received failure(APIError.timeout).

                expect(Fail<Int, APIError>)
              ✗   .toFail(with: APIError.offline)

                 received                   expected
                 subscription
              →  failure(APIError.timeout)  failure(APIError.offline)  toFail(with: APIError.offline)
            """,
        ]) {
            expect(Fail<Int, APIError>(error: .timeout)).toFail(with: APIError.offline)
        }
    }

    @Test func anEnumDifference() {
        expectFailures([
            """
            toEmit([State.loading, State.loaded(Profile(name: "Blob", followers: 42, verified: true))]) failed: value 2 of 2 differs: expected State.loaded(Profile(name: "Blob", followers: 42, verified: true)), received State.loaded(Profile(name: "Blob", followers: 41, verified: true)) at tick 4.

                expect(PassthroughSubject<State, Never>)
              ✗   .toEmit([State.loading, State.loaded(Profile(name: "Blob", followers: 42, verified: true))])

                 tick  received                                  expected
                    0  subscription
                    1  State.loading                             State.loading                             toEmit([State.loading, State.loaded(Profile(name: "Blob", followers: 42, verified: true))])
              →     4  State.loaded(Profile(name: "Blob", foll…  State.loaded(Profile(name: "Blob", foll…  toEmit([State.loading, State.loaded(Profile(name: "Blob", followers: 42, verified: true))])

            Difference (- expected, + received):
              State.loaded(
                Profile(
                  name: "Blob"
            -     followers: 42
            +     followers: 41
                  verified: true
                )
              )
            """,
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<State, Never>()
            let received = Profile(name: "Blob", followers: 41, verified: true)
            clock.schedule(after: .ticks(1)) { subject.send(.loading) }
            clock.schedule(after: .ticks(4)) { subject.send(.loaded(received)) }

            expect(subject, on: clock).toEmit([.loading, .loaded(Profile(name: "Blob", followers: 42, verified: true))])
        }
    }

    @Test(.hangGuard) func aWallClockFailure() async {
        await expectWallClockFailures([
            """
            toEmit([1, 2, 3], timeout: .seconds(60)) failed: expected value 3 of 3 (3), received finished at +… ms.

                expect(Publishers.Delay<…>)
              ✗   .toEmit([1, 2, 3], timeout: .seconds(60))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit([1, 2, 3], timeout: .seconds(60))
                 +… ms  2             2         toEmit([1, 2, 3], timeout: .seconds(60))
              →  +… ms  finished      3         toEmit([1, 2, 3], timeout: .seconds(60))
            """,
        ]) {
            let replies = [1, 2].publisher.delay(for: .milliseconds(20), scheduler: DispatchQueue.global())

            await expect(replies).toEmit([1, 2, 3], timeout: .seconds(60))
        }
    }

    // MARK: The guide itself

    /// Every fenced block of the guide — code and text — appears in this file line for line (indented as a whole),
    /// so the guide cannot drift from the examples these tests run. A wall-clock message shows its times in the guide
    /// as they really print, and here masked (they vary from run to run): such a block is compared with its times
    /// masked by ``maskingTimes(_:)``.
    @Test func theGuideShowsOnlyTheseExamples() throws {
        let guideURL = URL(fileURLWithPath: "\(#filePath)")
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Guides/FailureMessages.md")
        let guide = try String(contentsOf: guideURL, encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: "\(#filePath)"), encoding: .utf8)
            .replacingOccurrences(of: "private struct", with: "struct")
            .replacingOccurrences(of: "private enum", with: "enum")
            .split(separator: "\n", omittingEmptySubsequences: false)
        let blocks = fencedBlocks(in: guide)
        #expect(blocks.count >= 42)
        for block in blocks {
            let masked = maskingTimes(block.joined(separator: "\n"))
                .split(separator: "\n", omittingEmptySubsequences: false)
            let found = contains(source, block) || contains(source, masked)
            #expect(found, "a block of the guide is not in its tests:\n\(block.joined(separator: "\n"))")
        }
    }
}

/// The fenced blocks of a Markdown text, each as its lines.
private func fencedBlocks(in markdown: String) -> [[Substring]] {
    var blocks: [[Substring]] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
            if let block = current {
                blocks.append(block)
                current = nil
            } else {
                current = []
            }
        } else {
            current?.append(line)
        }
    }
    return blocks
}

/// Whether `lines` holds `block` as consecutive lines, all indented by the same prefix (blank lines match blank ones).
private func contains(_ lines: [Substring], _ block: [Substring]) -> Bool {
    guard let first = block.first, !first.isEmpty, lines.count >= block.count else { return false }
    for start in 0 ... lines.count - block.count where lines[start].hasSuffix(first) {
        let indent = lines[start].dropLast(first.count)
        guard indent.allSatisfy({ $0 == " " }) else { continue }
        let matches = zip(block, lines[start...]).allSatisfy { expected, line in
            expected.isEmpty ? line.allSatisfy { $0 == " " } : line == indent + expected
        }
        if matches { return true }
    }
    return false
}
