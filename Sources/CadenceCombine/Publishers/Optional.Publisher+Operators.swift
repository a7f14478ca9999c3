import CadenceSupport

// Combine's specialised operators on `Optional.Publisher`: each computes its outcome at once from the optional
// output and returns another `Optional.Publisher` (or a `Just` or `Empty`), instead of wrapping the publisher in an
// operator. They are more specific than the generic operators, so they win where they apply.

extension Optional.Publisher where Wrapped: Equatable {
    /// Publishes whether the output equals `output`, or nothing when there is no output.
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// Publishes the output, if any: one value has no duplicates.
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// Publishes the output, if any.
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// Publishes the output, if any.
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// Publishes whether the output satisfies the predicate, or nothing when there is no output.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes the output in an array: empty when there is no output.
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Publishes the transformed output, if any and if the transform returns one.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Publishes the output, if any.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the output, if any.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes whether the output satisfies the predicate, or nothing when there is no output.
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes one when there is an output, else nothing.
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Publishes the output when `count` is zero, else nothing.
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        require(count >= 0, "Optional.Publisher.dropFirst(_:): the count must not be negative, got \(count)")
        return Optional<Wrapped>.Publisher(count == 0 ? output : nil)
    }

    /// Publishes the output unless it satisfies the predicate.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// Publishes the output, if any.
    public func first() -> Optional<Wrapped>.Publisher { self }

    /// Publishes the output if it satisfies the predicate.
    public func first(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        filter(predicate)
    }

    /// Publishes the output, if any.
    public func last() -> Optional<Wrapped>.Publisher { self }

    /// Publishes the output if it satisfies the predicate.
    public func last(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        filter(predicate)
    }

    /// Publishes the output if it satisfies the predicate.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Publishes no value, only the completion.
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Publishes the transformed output, if any.
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Publishes the output when `index` is zero, else nothing.
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        require(index >= 0, "Optional.Publisher.output(at:): the index must not be negative, got \(index)")
        return Optional<Wrapped>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the output when `range` includes index zero, else nothing.
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        let indices = range.relative(to: 0..<Int.max)
        require(indices.lowerBound >= 0, "Optional.Publisher.output(in:): the range must not start below zero")
        // Combine traps on the last two indices as an upper bound too, a partial range from zero included.
        require(
            indices.upperBound < Int.max - 1,
            "Optional.Publisher.output(in:): the range must end below Int.max - 1, got \(indices.upperBound)")
        return Optional<Wrapped>.Publisher(indices.contains(0) ? output : nil)
    }

    /// Publishes the output when `maxLength` is positive, else nothing.
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        require(
            maxLength >= 0, "Optional.Publisher.prefix(_:): the maximum length must not be negative, got \(maxLength)")
        return Optional<Wrapped>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the output if it satisfies the predicate.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        filter(predicate)
    }

    /// Publishes the result of combining the initial result with the output, or nothing when there is no output.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the output, if any.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the output, if any: this publisher never fails.
    public func replaceError(with output: Output) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the output, or `output` when there is none.
    public func replaceEmpty(with output: Output) -> Just<Wrapped> {
        Just(self.output ?? output)
    }

    /// Publishes the output, if any: this publisher never fails, so there is nothing to retry.
    public func retry(_ times: Int) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the result of combining the initial result with the output, or nothing when there is no output.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }
}
