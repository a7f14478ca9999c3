// Combine's specialised operators on `Publishers.Sequence`: each applies the operation to the sequence at once and
// returns a publisher of the outcome (a sequence, a result or an optional), instead of wrapping the sequence
// publisher in an operator. They are more specific than the generic operators, so they win where they apply.

extension Publishers.Sequence where Failure == Never {
    /// Publishes the minimum element of the sequence, as the given ordering defines it.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the maximum element of the sequence, as the given ordering defines it.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// Publishes the first element of the sequence that satisfies the predicate.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Publishes whether every element of the sequence satisfies the predicate.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result.Publisher(sequence.allSatisfy(predicate))
    }

    /// Publishes whether every element satisfies the throwing predicate, or the error it throws.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// Publishes all the elements of the sequence as one array.
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result.Publisher(Array(sequence))
    }

    /// Publishes the non-`nil` results of transforming each element.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Publishes whether an element of the sequence satisfies the predicate.
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result.Publisher(sequence.contains(where: predicate))
    }

    /// Publishes whether an element satisfies the throwing predicate, or the error it throws.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// Publishes the elements that follow the initial ones satisfying the predicate.
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Publishes the elements after the first `count`.
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// Publishes the elements that satisfy the predicate.
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Publishes no elements, only the completion.
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Publishes the result of transforming each element.
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Publishes at most the first `maxLength` elements.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// Publishes the initial elements that satisfy the predicate.
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// Publishes the result of combining all the elements with the closure.
    public func reduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Result<T, Failure>.Publisher {
        Result.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// Publishes the result of combining all the elements with the throwing closure, or the error it throws.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Publishes the elements with each `nil` replaced by `output`.
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Publishes each intermediate result of combining the elements with the closure.
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Sequence<[T], Failure> {
        var accumulated = initialResult
        var results: [T] = []
        for element in sequence {
            accumulated = nextPartialResult(accumulated, element)
            results.append(accumulated)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// The same sequence, published with another failure type.
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Publishes the elements without consecutive repeats.
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var unique: [Output] = []
        for element in sequence where unique.last != element {
            unique.append(element)
        }
        return Publishers.Sequence<[Output], Failure>(sequence: unique)
    }

    /// Publishes whether the sequence contains `output`.
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the minimum element of the sequence.
    public func min() -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.min())
    }

    /// Publishes the maximum element of the sequence.
    public func max() -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element of the collection.
    public func first() -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.first)
    }

    /// Publishes the element at `index`, or finishes without one when the index is out of bounds.
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements.
    public func count() -> Result<Int, Failure>.Publisher {
        Result.Publisher(sequence.count)
    }

    /// Publishes the elements in `range`.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Publishes the last element of the collection.
    public func last() -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.last)
    }

    /// Publishes the last element that satisfies the predicate.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the element at `index`, or finishes without one when the index is out of bounds.
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// Publishes the number of elements.
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Publishes the elements in `range`.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }

    /// Publishes the number of elements.
    public func count() -> Result<Int, Failure>.Publisher {
        Result.Publisher(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Publishes the given elements, then those of this sequence.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Publishes the given elements, then those of this sequence.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var joined = Elements()
        joined.reserveCapacity(sequence.count + elements.underestimatedCount)
        joined.append(contentsOf: elements)
        joined.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: joined)
    }

    /// Publishes the elements of the given sequence publisher, then those of this one.
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        var joined = publisher.sequence
        joined.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: joined)
    }

    /// Publishes the elements of this sequence, then the given ones.
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Publishes the elements of this sequence, then the given ones.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence(sequence: joined)
    }

    /// Publishes the elements of this sequence publisher, then those of the given one.
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
