/// Combine's module name as a namespace, so that code which qualifies a name by its module — `Combine.Subscription`,
/// `Combine.Publisher` — compiles where Cadence brings its own Combine.
///
/// Libraries qualify a name when one of their own types shares it: an operator whose subscription class is called
/// `Subscription` names the protocol `Combine.Subscription`, as CombineExt does.
///
/// ```swift
/// extension Combine.Publisher {
///     func pairs() -> some Combine.Publisher<(Output, Output), Failure> {
///         Pairs(upstream: self)   // whose subscription class is `Pairs.Subscription`
///     }
/// }
/// ```
///
/// On Apple platforms `Combine` is Apple's module and this enum does not exist. Elsewhere there is no module of that
/// name — one would make every other package in the build take its Combine branch — and `import Cadence`
/// brings this enum instead. It holds every top-level name of Combine, each an alias of Cadence's own: protocols
/// work as constraints, conformances, `some Combine.Publisher<Int, Never>` and `any Combine.Cancellable`, and types
/// and namespaces as types (`Combine.Publishers.Map`) and in extensions.
public enum Combine {
    // Protocols.
    /// Combine's `Publisher`.
    public typealias Publisher = CadenceCombine.Publisher
    /// Combine's `Subscriber`.
    public typealias Subscriber = CadenceCombine.Subscriber
    /// Combine's `Subscription`.
    public typealias Subscription = CadenceCombine.Subscription
    /// Combine's `Cancellable`.
    public typealias Cancellable = CadenceCombine.Cancellable
    /// Combine's `Subject`.
    public typealias Subject = CadenceCombine.Subject
    /// Combine's `ConnectablePublisher`.
    public typealias ConnectablePublisher = CadenceCombine.ConnectablePublisher
    /// Combine's `CustomCombineIdentifierConvertible`.
    public typealias CustomCombineIdentifierConvertible = CadenceCombine.CustomCombineIdentifierConvertible
    /// Combine's `ObservableObject`.
    public typealias ObservableObject = CadenceCombine.ObservableObject
    /// Combine's `Scheduler`.
    public typealias Scheduler = CadenceCombine.Scheduler
    /// Combine's `SchedulerTimeIntervalConvertible`.
    public typealias SchedulerTimeIntervalConvertible = CadenceCombine.SchedulerTimeIntervalConvertible
    /// Combine's `TopLevelDecoder`.
    public typealias TopLevelDecoder = CadenceCombine.TopLevelDecoder
    /// Combine's `TopLevelEncoder`.
    public typealias TopLevelEncoder = CadenceCombine.TopLevelEncoder

    // Namespaces.
    /// Combine's `Publishers`.
    public typealias Publishers = CadenceCombine.Publishers
    /// Combine's `Subscribers`.
    public typealias Subscribers = CadenceCombine.Subscribers
    /// Combine's `Subscriptions`.
    public typealias Subscriptions = CadenceCombine.Subscriptions

    // Types.
    /// Combine's `AnyCancellable`.
    public typealias AnyCancellable = CadenceCombine.AnyCancellable
    /// Combine's `AnyPublisher`.
    public typealias AnyPublisher = CadenceCombine.AnyPublisher
    /// Combine's `AnySubscriber`.
    public typealias AnySubscriber = CadenceCombine.AnySubscriber
    /// Combine's `AsyncPublisher`.
    public typealias AsyncPublisher = CadenceCombine.AsyncPublisher
    /// Combine's `AsyncThrowingPublisher`.
    public typealias AsyncThrowingPublisher = CadenceCombine.AsyncThrowingPublisher
    /// Combine's `CombineIdentifier`.
    public typealias CombineIdentifier = CadenceCombine.CombineIdentifier
    /// Combine's `CurrentValueSubject`.
    public typealias CurrentValueSubject = CadenceCombine.CurrentValueSubject
    /// Combine's `Deferred`.
    public typealias Deferred = CadenceCombine.Deferred
    /// Combine's `Empty`.
    public typealias Empty = CadenceCombine.Empty
    /// Combine's `Fail`.
    public typealias Fail = CadenceCombine.Fail
    /// Combine's `Future`.
    public typealias Future = CadenceCombine.Future
    /// Combine's `ImmediateScheduler`.
    public typealias ImmediateScheduler = CadenceCombine.ImmediateScheduler
    /// Combine's `Just`.
    public typealias Just = CadenceCombine.Just
    /// Combine's `ObservableObjectPublisher`.
    public typealias ObservableObjectPublisher = CadenceCombine.ObservableObjectPublisher
    /// Combine's `PassthroughSubject`.
    public typealias PassthroughSubject = CadenceCombine.PassthroughSubject
    /// Combine's `Published`.
    public typealias Published = CadenceCombine.Published
    /// Combine's `Record`.
    public typealias Record = CadenceCombine.Record
}
