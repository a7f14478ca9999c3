extension Publisher {
    /// Shares the output of an upstream publisher with multiple subscribers.
    ///
    /// ```swift
    /// let profile = loadProfile().share()
    /// profile.map(\.name).sink { nameLabel.text = $0 }.store(in: &cancellables)
    /// profile.map(\.avatar).sink { avatarView.image = $0 }.store(in: &cancellables) // one request, two uses
    /// ```
    ///
    /// The returned publisher is a class: keep and reuse the same instance to share one upstream subscription.
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// A publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// It is `multicast(subject: PassthroughSubject())` with `autoconnect()`: the first subscriber connects it to
    /// the upstream, later ones join the same subscription (and miss what was sent before they joined), and the
    /// upstream is cancelled when the last subscriber cancels. Two shares are equal only if they are the same
    /// instance.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let shared: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher that shares the output of `upstream` with multiple subscribers.
        public init(upstream: Upstream) {
            self.upstream = upstream
            shared = Multicast(upstream: upstream, createSubject: { PassthroughSubject() }).autoconnect()
        }

        /// Attaches the subscriber to the shared subscription, connecting it if this is the first subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            shared.subscribe(subscriber)
        }

        /// Two shares are equal only when they are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}
