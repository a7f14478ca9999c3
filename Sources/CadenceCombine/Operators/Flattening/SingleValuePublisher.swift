/// A publisher that hands every subscriber one value, at its first positive request, then finishes, and never
/// fails: `Just`, and `Just` given a failure type with `setFailureType(to:)`.
///
/// flatMap takes the value of such an inner publisher without subscribing to it: it delivers the value and ends the
/// inner exactly where the subscription would have (flatMap's first request to an inner is always positive), without
/// the inner's subscription, side subscriber and completion.
protocol SingleValuePublisher: Publisher {
    /// Reads the value of a publisher of this type. Made once per flatMap subscription.
    static func makeValueReader() -> SingleValueReader<Self>
}

/// Reads the value a `SingleValuePublisher` of type `P` hands its subscribers.
///
/// A class, so that flatMap's subscription, which runs unspecialised, reads a value through one call on a reader it
/// made when it was subscribed, with no type cast or metadata look-up on each value.
class SingleValueReader<P: Publisher> {
    /// The value `publisher` hands each subscriber.
    func value(of publisher: P) -> P.Output {
        preconditionFailure("SingleValueReader is abstract")
    }
}

/// The reader of a `SingleValuePublisher` of type `P`, or `nil` when `P` is not one. The cast runs once per call.
func makeSingleValueReader<P: Publisher>(for type: P.Type) -> SingleValueReader<P>? {
    guard let singleValueType = type as? any SingleValuePublisher.Type else { return nil }
    return makeValueReader(of: singleValueType) as? SingleValueReader<P>
}

private func makeValueReader<P: SingleValuePublisher>(of type: P.Type) -> AnyObject {
    P.makeValueReader()
}

extension Just: SingleValuePublisher {
    static func makeValueReader() -> SingleValueReader<Just<Output>> {
        JustValueReader<Output>()
    }
}

private final class JustValueReader<Output>: SingleValueReader<Just<Output>> {
    override func value(of publisher: Just<Output>) -> Output {
        publisher.output
    }
}

extension Publishers.SetFailureType: SingleValuePublisher where Upstream: SingleValuePublisher {
    static func makeValueReader() -> SingleValueReader<Publishers.SetFailureType<Upstream, Failure>> {
        SetFailureTypeValueReader(upstream: Upstream.makeValueReader())
    }
}

private final class SetFailureTypeValueReader<Upstream: SingleValuePublisher, Failure: Error>:
    SingleValueReader<Publishers.SetFailureType<Upstream, Failure>>
where Upstream.Failure == Never {
    private let upstream: SingleValueReader<Upstream>

    init(upstream: SingleValueReader<Upstream>) {
        self.upstream = upstream
    }

    override func value(of publisher: Publishers.SetFailureType<Upstream, Failure>) -> Upstream.Output {
        upstream.value(of: publisher.upstream)
    }
}
