import Cadence
import Testing

@Suite("Subscribers.Assign")
struct AssignTests {
    final class Target {
        var value = 0
        var onDeinit: (() -> Void)?

        deinit { onDeinit?() }
    }

    @Test func assignsEveryValue() {
        let target = Target()
        let publisher = DrivenPublisher<Int, Never>()
        let cancellable = publisher.assign(to: \.value, on: target)
        #expect(publisher.subscription.requests == [.unlimited])
        publisher.send(1)
        #expect(target.value == 1)
        publisher.send(42)
        #expect(target.value == 42)
        withExtendedLifetime(cancellable) {}
    }

    @Test func worksWithAPassthroughSubject() {
        let target = Target()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.assign(to: \.value, on: target)
        subject.send(42)
        #expect(target.value == 42)
        cancellable.cancel()
        subject.send(1)
        #expect(target.value == 42)
        _ = subject.assign(to: \.value, on: target)
        subject.send(100)
        #expect(target.value == 42)
    }

    @Test func finishedReleasesTheObjectAndStopsAssigning() {
        let publisher = DrivenPublisher<Int, Never>()
        weak var weakTarget: Target?
        let assign: Subscribers.Assign<Target, Int>
        do {
            let target = Target()
            weakTarget = target
            assign = Subscribers.Assign(object: target, keyPath: \.value)
        }
        publisher.subscribe(assign)
        publisher.send(3)
        #expect(weakTarget?.value == 3)
        #expect(assign.object === weakTarget)
        publisher.send(completion: .finished)
        #expect(weakTarget == nil)
        #expect(assign.object == nil)
        #expect(assign.receive(4) == .none)
        #expect(!publisher.subscription.isCancelled)
    }

    @Test func cancelReleasesTheObjectAndCancelsTheUpstreamOnce() {
        let publisher = DrivenPublisher<Int, Never>()
        weak var weakTarget: Target?
        let cancellable: AnyCancellable
        do {
            let target = Target()
            weakTarget = target
            cancellable = publisher.assign(to: \.value, on: target)
        }
        publisher.send(5)
        #expect(weakTarget?.value == 5)
        cancellable.cancel()
        cancellable.cancel()
        #expect(weakTarget == nil)
        #expect(publisher.subscription.cancelCount == 1)
    }

    @Test func theObjectIsReleasedOutsideTheLock() {
        let publisher = DrivenPublisher<Int, Never>()
        nonisolated(unsafe) var mirroredDuringDeinit: Int?
        let assign: Subscribers.Assign<Target, Int>
        do {
            let target = Target()
            assign = Subscribers.Assign(object: target, keyPath: \.value)
            // Reading the subscriber from the object's deinit would deadlock if the lock were still held.
            target.onDeinit = { [unowned assign] in mirroredDuringDeinit = Mirror(reflecting: assign).children.count }
        }
        publisher.subscribe(assign)
        assign.cancel()
        #expect(mirroredDuringDeinit == 3)
    }

    @Test func valuesBeforeSubscriptionAreIgnored() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \.value)
        #expect(assign.receive(12) == .none)
        #expect(target.value == 0)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \.value)
        let first = DrivenPublisher<Int, Never>()
        let second = DrivenPublisher<Int, Never>()
        first.subscribe(assign)
        second.subscribe(assign)
        #expect(first.subscription.requests == [.unlimited])
        #expect(!first.subscription.isCancelled)
        #expect(second.subscription.requests == [])
        #expect(second.subscription.cancelCount == 1)
        first.send(completion: .finished)
        let third = DrivenPublisher<Int, Never>()
        third.subscribe(assign)
        #expect(third.subscription.cancelCount == 1)
        assign.cancel()
        #expect(!first.subscription.isCancelled)
    }

    @Test func describesItselfWithTheRootType() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \.value)
        #expect(assign.description == "Assign Target.")
        #expect(assign.playgroundDescription as? String == "Assign Target.")
        let children = Array(assign.customMirror.children)
        #expect(children.map(\.label) == ["object", "keyPath", "status"])
        #expect(children.first?.value as? Target === target)
        #expect(children.dropFirst().first?.value as? ReferenceWritableKeyPath<Target, Int> == \Target.value)
        #expect(assign.keyPath == \Target.value)
    }
}
