/// Where a load is: not started, on its way, done with a value, or failed.
public enum LoadingState<Value: Equatable & Sendable>: Equatable, Sendable {
    /// Nothing loaded yet.
    case idle
    /// A load is on its way.
    case loading
    /// The last load succeeded with this value.
    case success(Value)
    /// The last load failed.
    case failure(LoadError)

    /// Whether a load is on its way.
    public var isLoading: Bool { self == .loading }
}
