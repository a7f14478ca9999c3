import CadenceSupport

extension Publisher {
    /// This publisher, with a probe that records every subscription made to it on `clock` — when it was made, each
    /// `request(_:)`, when it was cancelled or completed — as a ``TestPublisher`` records its own.
    ///
    /// ```swift
    /// let request = api.resetPassword(email).probed(on: clock)
    /// // … after the test drives the clock:
    /// request.expectSubscriptions(["^--!"])   // subscribed at once, cancelled three ticks later
    /// ```
    public func probed(on clock: VirtualClock) -> ProbedPublisher<Self> {
        ProbedPublisher(upstream: self, probe: SubscriptionProbe(clock: clock), madeBy: "probed(on:)")
    }

    /// This publisher, with a probe on the test's clock, `VirtualClock.current` — the clock that `.virtualTime` and
    /// `withVirtualTime` bind — as `probed(on:)` puts one on a clock passed to it.
    ///
    /// ```swift
    /// @Test(.virtualTime)
    /// func theRequestIsMadeOnTheTap() {
    ///     let request = api.resetPassword(email).probed()
    ///     …
    /// }
    /// ```
    ///
    /// With no clock bound, the call is reported as a failure at its line, and the probe records on a clock of its
    /// own, which nothing advances — every tick it notes is 0:
    ///
    /// ```text
    /// probed() found no test clock: it records on VirtualClock.current, which .virtualTime and withVirtualTime bind, and none is bound here. Pass the clock with probed(on:). This probe records on a clock of its own that nothing advances, so every tick it notes is 0.
    /// ```
    public func probed(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> ProbedPublisher<Self> {
        let clock = VirtualClock.current
        if clock == nil {
            FailureReporter.resolved.report(
                ExpectationFailure(
                    message: TestDoubleText.probedWithoutClock,
                    location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
                ))
        }
        return ProbedPublisher(
            upstream: self, probe: SubscriptionProbe(clock: clock ?? VirtualClock()), madeBy: "probed()")
    }
}

/// A publisher with a probe on its subscriptions (see `probed(on:)` and `probed()`).
public struct ProbedPublisher<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    let probe: SubscriptionProbe
    /// The call that made the publisher, as its failure messages name it: `probed()` or `probed(on:)`.
    let madeBy: String

    /// Every subscription made so far, in order.
    public var subscriptions: [SubscriptionRecord] { probe.all }

    /// Each subscription as a marble diagram counted from the tick the probe was made (see
    /// `TestPublisher.subscriptionDiagrams`).
    public var subscriptionDiagrams: [String] { probe.all.map { $0.diagram(from: probe.origin) } }

    /// Checks `subscriptionDiagrams` against `diagrams`, reporting a failure that lists every subscription when
    /// they differ.
    public func expectSubscriptions(
        _ diagrams: [String],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        probe.expect(
            diagrams, name: madeBy,
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.subscribe(ProbingSubscriber(downstream: subscriber, probe: probe))
    }
}

/// Stands between a probed publisher and its subscriber, recording the subscription's life.
private final class ProbingSubscriber<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable {
    // `index` and `upstream` are set once, in `receive(subscription:)`, before the downstream can call back.
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let probe: SubscriptionProbe
    private var index = -1
    private var upstream: (any Subscription)?

    init(downstream: Downstream, probe: SubscriptionProbe) {
        self.downstream = downstream
        self.probe = probe
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func receive(subscription: any Subscription) {
        index = probe.subscribed()
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if index >= 0 { probe.ended(index, cancelled: false) }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        if index >= 0 { probe.requested(demand, by: index) }
        upstream?.request(demand)
    }

    func cancel() {
        if index >= 0 { probe.ended(index, cancelled: true) }
        upstream?.cancel()
    }
}
