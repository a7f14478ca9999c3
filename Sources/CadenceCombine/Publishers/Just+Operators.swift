import CadenceSupport

// Combine's specialised operators on `Just`: each computes its outcome at once from the one output and returns a
// `Just`, a `Result.Publisher`, an `Optional.Publisher`, a sequence publisher or an `Empty`, instead of wrapping the
// `Just` in an operator. They are more specific than the generic operators, so they win where they apply.

extension Just where Output: Comparable {
    /// Publishes the output: the minimum of one value.
    public func min() -> Just<Output> { self }

    /// Publishes the output: the maximum of one value.
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Publishes whether the output equals `output`.
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }

    /// Publishes the output: one value has no duplicates.
    public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
    /// Publishes whether the output satisfies the predicate.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Publishes whether the output satisfies the throwing predicate, or the error it throws.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result.Publisher(Result { try predicate(output) })
    }

    /// Publishes the output in an array.
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// Publishes the transformed output, or finishes without a value when the transform returns `nil`.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional.Publisher(transform(output))
    }

    /// Publishes the output.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the output.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the given elements, then the output.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        prepend(elements)
    }

    /// Publishes the given elements, then the output.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where Output == S.Element {
        Publishers.Sequence<[Output], Failure>(sequence: elements + [output])
    }

    /// Publishes the output, then the given elements.
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        append(elements)
    }

    /// Publishes the output, then the given elements.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where Output == S.Element {
        Publishers.Sequence<[Output], Failure>(sequence: [output] + elements)
    }

    /// Publishes whether the output satisfies the predicate.
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Publishes whether the output satisfies the throwing predicate, or the error it throws.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result.Publisher(Result { try predicate(output) })
    }

    /// Publishes the number of values: one.
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Publishes the output when `count` is zero, else finishes without a value.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "Just.dropFirst(_:): the count must not be negative, got \(count)")
        return Optional.Publisher(count == 0 ? output : nil)
    }

    /// Publishes the output unless it satisfies the predicate.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(predicate(output) ? nil : output)
    }

    /// Publishes the output.
    public func first() -> Just<Output> { self }

    /// Publishes the output if it satisfies the predicate.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(predicate(output) ? output : nil)
    }

    /// Publishes the output.
    public func last() -> Just<Output> { self }

    /// Publishes the output if it satisfies the predicate.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(predicate(output) ? output : nil)
    }

    /// Publishes the output if it satisfies the predicate.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(isIncluded(output) ? output : nil)
    }

    /// Publishes no value, only the completion.
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Publishes the transformed output.
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Publishes the transformed output, or the error the transform throws.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result.Publisher(Result { try transform(output) })
    }

    /// Publishes the output with another failure type (a `Just` never fails, so the transform never runs).
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Publishes the output when `index` is zero, else finishes without a value.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        require(index >= 0, "Just.output(at:): the index must not be negative, got \(index)")
        return Optional.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the output when `range` starts at index zero, else finishes without a value.
    ///
    /// As in Combine, only the lower bound counts: an empty range that starts at zero (`0..<0`) publishes the output,
    /// and a range that starts below zero publishes nothing.
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Publishes the output when `maxLength` is positive, else finishes without a value.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        require(maxLength >= 0, "Just.prefix(_:): the maximum length must not be negative, got \(maxLength)")
        return Optional.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the output if it satisfies the predicate.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(predicate(output) ? output : nil)
    }

    /// Publishes the result of combining the initial result with the output.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Publishes the result of combining the initial result with the output, or the error the closure throws.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// Publishes the output.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the output, or the error the predicate throws. As in Combine, the predicate runs once, comparing the
    /// output with itself, so that a throwing predicate fails the publisher.
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result<Output, any Error> {
                _ = try predicate(output, output)
                return output
            })
    }

    /// Publishes the output: a `Just` never fails.
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// Publishes the output: a `Just` is never empty.
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// Publishes the output: a `Just` never fails, so there is nothing to retry.
    public func retry(_ times: Int) -> Just<Output> { self }

    /// Publishes the result of combining the initial result with the output.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Publishes the result of combining the initial result with the output, or the error the closure throws.
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// Publishes the output with the given failure type.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }
}
