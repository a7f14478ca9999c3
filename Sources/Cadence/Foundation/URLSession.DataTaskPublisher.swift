import CadenceSupport

#if !canImport(Combine)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that sends a request for `url` with this session and publishes the body and response once
    /// — Foundation's on Apple platforms, Cadence's on Linux.
    ///
    /// ```swift
    /// let cancellable = URLSession.shared.dataTaskPublisher(for: url)
    ///     .map(\.data)
    ///     .decode(type: Profile.self, decoder: JSONDecoder())
    ///     .receive(on: DispatchQueue.main)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that sends `request` with this session and publishes the body and response once —
    /// Foundation's on Apple platforms, Cadence's on Linux.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that sends a request with a session's data task and publishes the body and response once.
    ///
    /// As Foundation's on Apple platforms:
    /// - each subscription makes a data task of its own, and only when the subscriber first requests a value:
    ///   subscribing sends nothing, and a subscriber that never requests sends nothing; every later request resumes
    ///   the task again, which does nothing more;
    /// - an answer of any status code (a 404 too) is a value, `(data, response)`, then `.finished`; a body that is
    ///   missing is empty `Data`;
    /// - a transport error fails with that `URLError`; an error of another type, or no error and no response, fails
    ///   with `URLError(.unknown)`;
    /// - cancelling cancels the data task; nothing is delivered after it, not even the task's `.cancelled` error;
    /// - the answer arrives on the thread of the session's delegate queue;
    /// - `request(.none)` traps, as Combine's subscriptions do; the subscription's `description` is
    ///   `"DataTaskPublisher"`.
    public struct DataTaskPublisher: Publisher {
        /// The body of the answer and its response (an `HTTPURLResponse` for an HTTP request).
        public typealias Output = (data: Data, response: URLResponse)
        /// The error of a request that failed in transport.
        public typealias Failure = URLError

        /// The request each subscription sends.
        public let request: URLRequest
        /// The session whose data tasks send the request.
        public let session: URLSession

        /// Creates a publisher that sends `request` with `session`'s data tasks.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
            subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: subscriber))
        }
    }
}

/// A subscription seen without its subscriber's type, so that the data task's completion handler, which runs on the
/// session's delegate queue, holds no generic type.
private class DataTaskAnswerable: @unchecked Sendable { // a base class: its subclass guards its own state
    func answer(data _: Data?, response _: URLResponse?, error _: (any Error)?) {}
}

/// One subscriber's data task: made on the first request, answered once, cancelled with the subscription.
private final class DataTaskSubscription<Downstream: Subscriber>: DataTaskAnswerable, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == (data: Data, response: URLResponse), Downstream.Failure == URLError {
    // `state` guards everything that changes; the task's completion handler runs on the session's delegate queue.
    private struct State {
        /// The publisher, until the subscription is answered or cancelled: nil means it is over.
        var parent: URLSession.DataTaskPublisher?
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        /// Set by the first request, before the task is made outside the lock, so that only one request makes it.
        var isTaskMade = false
        var task: URLSessionDataTask?
    }

    private let state: Locked<State>

    init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
        state = Locked(State(parent: parent, downstream: downstream))
        super.init()
    }

    func request(_ demand: Subscribers.Demand) {
        guard
            combineRule(
                demand > 0,
                "DataTaskPublisher: request(_:) was called with max(0); a subscriber must request a positive demand")
        else { return }
        let (parent, task) = state.withLock { state -> (URLSession.DataTaskPublisher?, URLSessionDataTask?) in
            guard let parent = state.parent else { return (nil, nil) }
            state.demand += demand
            if state.isTaskMade { return (nil, state.task) }
            state.isTaskMade = true
            return (parent, nil)
        }
        if let parent {
            // The session may be a subclass: it is asked for the task outside the lock.
            let answerable: DataTaskAnswerable = self
            let made = parent.session.dataTask(with: parent.request) { data, response, error in
                answerable.answer(data: data, response: response, error: error)
            }
            let isCancelled = state.withLock { state -> Bool in
                guard state.parent != nil else { return true }
                state.task = made
                return false
            }
            if isCancelled {
                made.cancel()
            } else {
                made.resume()
            }
        } else {
            task?.resume()
        }
    }

    /// The data task's completion: the first one is delivered, unless the subscription was cancelled before it.
    override func answer(data: Data?, response: URLResponse?, error: (any Error)?) {
        let (downstream, released) = state.withLock { state -> (Downstream?, State?) in
            guard state.parent != nil, state.demand > 0 else { return (nil, nil) }
            defer { state = State() }
            return (state.downstream, state)
        }
        guard let downstream else { return }
        withExtendedLifetime(released) {} // the publisher and the task are released here, outside the lock
        switch (response, error) {
        case let (response?, nil):
            _ = downstream.receive((data: data ?? Data(), response: response))
            downstream.receive(completion: .finished)
        case let (_, error as URLError):
            downstream.receive(completion: .failure(error))
        default:
            downstream.receive(completion: .failure(URLError(.unknown)))
        }
    }

    func cancel() {
        let released = state.withLock { state -> State? in
            guard state.parent != nil else { return nil }
            defer { state = State() }
            return state
        }
        released?.task?.cancel()
        withExtendedLifetime(released) {} // the subscriber, the publisher and the task are released here
    }

    var description: String { "DataTaskPublisher" }

    var customMirror: Mirror {
        let (task, downstream, parent, demand) = state.withLock { ($0.task, $0.downstream, $0.parent, $0.demand) }
        return Mirror(
            self,
            children: [
                "task": task as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand,
            ])
    }

    var playgroundDescription: Any { description }
}
#endif
