/// A type that publishes a property marked with an attribute.
///
/// Publishing a property with the `@Published` attribute creates a publisher of this type, reached with `$`:
///
/// ```swift
/// final class Weather {
///     @Published var temperature = 20.0
/// }
///
/// let weather = Weather()
/// let cancellable = weather.$temperature.sink { print("Temperature now: \($0)") } // Prints "Temperature now: 20.0"
/// weather.temperature = 25 // Prints "Temperature now: 25.0"
/// ```
///
/// Publishing happens in the property's `willSet`: subscribers receive the new value before it is stored, so
/// reading the property inside the sink above gives `20.0` the second time. When the property belongs to an
/// `ObservableObject` that uses the default `objectWillChange`, that publisher fires before the subscribers of the
/// property receive the new value. `@Published` is only available on properties of classes.
@propertyWrapper
public struct Published<Value> {
    let subject: PublishedSubject<Value>

    /// Creates the published instance with an initial wrapped value.
    public init(wrappedValue: Value) {
        subject = PublishedSubject(wrappedValue)
    }

    /// Creates the published instance with an initial value.
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// A publisher for properties marked with the `@Published` attribute.
    ///
    /// It gives a new subscriber the current value at its first request, then each new value while it has demand;
    /// a subscriber that missed a value for lack of demand gets the then-current value at its next request. It
    /// never completes.
    public struct Publisher: CadenceCombine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        let subject: PublishedSubject<Value>

        init(_ subject: PublishedSubject<Value>) {
            self.subject = subject
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            subject.subscribe(subscriber)
        }
    }

    /// The property for which this instance exposes a publisher; setting it has no effect.
    public var projectedValue: Publisher {
        mutating get { Publisher(subject) }
        set {}
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's value, read and written through the enclosing object.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get {
            object[keyPath: storageKeyPath].subject.value
        }
        set {
            object[keyPath: storageKeyPath].subject.send(newValue, enclosing: object)
        }
    }

    /// The property's publisher, reached through the enclosing object (which the property then remembers, so that
    /// values assigned with `assign(to:)` fire the object's `objectWillChange`); setting it has no effect.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected projectedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        get {
            let subject = object[keyPath: storageKeyPath].subject
            subject.noteEnclosingObject(object)
            return Publisher(subject)
        }
        set {}
    }
}

extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked as a publisher.
    ///
    /// The subscription lives as long as the `@Published` property: no `AnyCancellable` is returned, and the
    /// upstream is cancelled when the property's storage goes away. Completion is ignored.
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedAssignSubscriber(published.subject))
    }
}

/// Feeds a `@Published` property's subject from an upstream publisher; it holds the subject weakly, and the subject
/// keeps (and on deinit cancels) the upstream subscription.
private struct PublishedAssignSubscriber<Value>: Subscriber, CustomStringConvertible {
    typealias Input = Value
    typealias Failure = Never

    let combineIdentifier = CombineIdentifier()
    private weak var subject: PublishedSubject<Value>?

    init(_ subject: PublishedSubject<Value>) {
        self.subject = subject
    }

    func receive(subscription: any Subscription) {
        if let subject {
            subject.send(subscription: subscription)
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        subject?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    var description: String { "PublishedSubscriber" }
}
