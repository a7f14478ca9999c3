import CadenceTesting
import Testing

// Every example of Guides/FailureMessages.md, as the guide shows it: the same code, and the exact text it reports.
// Change one, change the other.

private struct User: Equatable {
    var id: Int
    var name: String
    var email: String
}

@Suite("Guides/FailureMessages.md")
struct FailureMessagesGuideTests {
    @Test func aWrongValue() {
        expectFailures([
            "PLACEHOLDER",
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<Int, Never>()
            clock.schedule(after: .ticks(1)) { subject.send(1) }
            clock.schedule(after: .ticks(2)) { subject.send(5) }
            clock.schedule(after: .ticks(3)) { subject.send(3) }

            expect(subject, on: clock).toEmit([1, 2, 3]).thenFinish(within: .ticks(5))
        }
    }

    @Test func aMissingValueOnAnIdleClock() {
        expectFailures([
            "PLACEHOLDER",
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
            "PLACEHOLDER",
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<String, Never>()
            clock.schedule(after: .ticks(8)) { subject.send("ready") }

            expect(subject, on: clock).toEmit("ready", within: .ticks(5))
        }
    }

    @Test func anOverFulfilment() {
        expectFailures([
            "PLACEHOLDER",
        ]) {
            expect([1, 2, 3].publisher).toEmit([1, 2])
        }
    }

    @Test func aLateEventAfterTheChainEnded() {
        expectFailures([
            "PLACEHOLDER",
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
            "PLACEHOLDER",
        ]) {
            let blob = User(id: 1, name: "Blob", email: "blob@example.com")
            let received = User(id: 1, name: "Blob", email: "blob@example.org")

            expect(Just(received)).toEmit(blob).thenFinish()
        }
    }

    @Test func anArrayDifference() {
        expectFailures([
            "PLACEHOLDER",
        ]) {
            let clock = VirtualClock()
            let subject = PassthroughSubject<[String], Never>()
            clock.schedule(after: .ticks(3)) { subject.send(["milk", "eggs", "bread", "butter", "jam", "tea"]) }

            expect(subject, on: clock).toEmit(["milk", "eggs", "flour", "butter", "jam", "tea"])
        }
    }
}
