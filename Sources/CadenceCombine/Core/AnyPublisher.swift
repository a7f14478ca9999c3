/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher across an API boundary without exposing its operator chain. Erasing an
/// `AnyPublisher` again reuses the same box.
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline let box: AnyPublisherBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = AnyPublisherBox(publisher)
        }
    }

    public var description: String { "AnyPublisher" }

    public var playgroundDescription: Any { description }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

@usableFromInline
class AnyPublisherBase<Output, Failure: Error> {
    @usableFromInline init() {}

    @usableFromInline func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        fatalError("abstract")
    }
}

@usableFromInline
final class AnyPublisherBox<Base: Publisher>: AnyPublisherBase<Base.Output, Base.Failure> {
    @usableFromInline let base: Base

    @inlinable init(_ base: Base) {
        self.base = base
    }

    @inlinable override func receive<S: Subscriber>(subscriber: S)
    where S.Input == Base.Output, S.Failure == Base.Failure {
        base.receive(subscriber: subscriber)
    }
}
