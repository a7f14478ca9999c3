extension Publisher {
    /// Replaces `nil` elements in the stream with the provided element.
    ///
    /// Like Combine's, it is a `map`: its subscriber is a `Map` that hands the upstream subscription straight to the
    /// downstream.
    ///
    /// ```swift
    /// [1.0, nil, 3.0].publisher.replaceNil(with: 0.0)   // 1.0, 0.0, 3.0
    /// ```
    ///
    /// - Parameter output: The element to use when replacing `nil`.
    /// - Returns: A publisher that replaces `nil` elements from the upstream publisher with the provided element.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
