import CadenceSupport

#if !canImport(Combine)
import Foundation

/// Combine's `Publisher` protocol, under a name the nested `NotificationCenter.Publisher` does not hide.
typealias NotificationCenterPublisherConformance = Publisher

extension NotificationCenter {
    /// Returns a publisher that emits the notifications this center posts with `name` (and, when given, from
    /// `object`) — Foundation's on Apple platforms, Cadence's on Linux.
    ///
    /// ```swift
    /// let cancellable = NotificationCenter.default.publisher(for: .NSSystemClockDidChange)
    ///     .sink { notification in print(notification.name) }
    /// ```
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits the notifications a center posts with a given name.
    ///
    /// As Foundation's on Apple platforms:
    /// - each subscription adds an observer to the center when it is made and removes it when it is cancelled,
    ///   releasing the center and the object then;
    /// - a notification is delivered on the thread that posted it, against the subscriber's demand; one posted while
    ///   the subscriber has none outstanding is dropped for that subscriber (`request(.none)` adds nothing);
    /// - a notification posted from inside the subscriber's `receive(_:)` is delivered at once, nested, if demand is
    ///   left;
    /// - the publisher never completes; the subscription's `description` is `"NotificationCenter Observer"`.
    public struct Publisher: NotificationCenterPublisherConformance, Equatable {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The center that posts the notifications.
        public let center: NotificationCenter
        /// The name of the notifications published.
        public let name: Notification.Name
        /// The object whose notifications are published; nil for any object's.
        public let object: AnyObject?

        /// Creates a publisher of the notifications `center` posts with `name`, from `object` when it is given.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(
                center: center, name: name, object: object, downstream: subscriber)
            subscriber.receive(subscription: subscription)
        }

        /// Two publishers are equal when they observe the same center, name and object (by identity).
        public static func == (lhs: Publisher, rhs: Publisher) -> Bool {
            lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
        }
    }
}

/// An observer of a notification center seen without its subscriber's type, so that the center's block, which may
/// run on any thread, holds no generic type.
private class NotificationObserver: @unchecked Sendable { // a base class: its subclass guards its own state
    func received(_ notification: Notification) {}
}

/// One subscriber's observer of a notification center.
private final class NotificationSubscription<Downstream: Subscriber>: NotificationObserver, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    // `state` guards what changes; `name` is immutable; the observer block runs on whichever thread posts.
    private struct State {
        var downstream: Downstream?
        var center: NotificationCenter?
        var object: AnyObject?
        var observation: (any NSObjectProtocol)?
        var demand = Subscribers.Demand.none
    }

    private let state: Locked<State>
    private let name: Notification.Name

    init(center: NotificationCenter, name: Notification.Name, object: AnyObject?, downstream: Downstream) {
        self.name = name
        state = Locked(State(downstream: downstream, center: center, object: object))
        super.init()
        let observer: NotificationObserver = self
        let observation = center.addObserver(forName: name, object: object, queue: nil) { [weak observer] note in
            observer?.received(note)
        }
        state.withLock { $0.observation = observation }
    }

    /// Delivers `notification` if the subscriber has demand for it and has not cancelled.
    override func received(_ notification: Notification) {
        let downstream = state.withLock { state -> Downstream? in
            guard let downstream = state.downstream, state.demand > 0 else { return nil }
            state.demand -= 1
            return downstream
        }
        guard let downstream else { return }
        let more = downstream.receive(notification)
        state.withLock { state in
            if state.center != nil { state.demand += more }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { state in
            if state.center != nil { state.demand += demand }
        }
    }

    func cancel() {
        let (center, observation, released) = state.withLock { state in
            defer {
                state.center = nil
                state.observation = nil
                state.object = nil
                state.downstream = nil
            }
            return (state.center, state.observation, (state.object, state.downstream))
        }
        guard let center, let observation else { return }
        center.removeObserver(observation)
        withExtendedLifetime(released) {} // the object and the subscriber are released here, outside the lock
    }

    var description: String { "NotificationCenter Observer" }

    var customMirror: Mirror {
        let (center, object, demand) = state.withLock { ($0.center, $0.object, $0.demand) }
        return Mirror(
            self,
            children: [
                "center": center as Any, "name": name, "object": object as Any, "demand": demand,
            ])
    }

    var playgroundDescription: Any { description }
}
#endif
