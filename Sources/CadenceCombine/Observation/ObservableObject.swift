/// A type of object with a publisher that emits before the object has changed.
///
/// By default an `ObservableObject` synthesizes an `objectWillChange` publisher that emits before any of its
/// `@Published` properties changes:
///
/// ```swift
/// final class Contact: ObservableObject {
///     @Published var age = 24
/// }
///
/// let john = Contact()
/// let cancellable = john.objectWillChange.sink { print("\(john.age) will change") }
/// john.age += 1 // Prints "24 will change"
/// ```
///
/// A class that declares its own `objectWillChange` publishes through it alone: its `@Published` properties do not
/// send to it, as in Combine.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed: the same instance on every access for this object,
    /// fired by every `@Published` property of the object, including those its superclasses declare.
    public var objectWillChange: ObservableObjectPublisher {
        ObservableObjectRegistry.publisher(for: self)
    }
}
