// Combine's specialised operators on `Result.Publisher`: each computes its outcome at once from the result and
// returns another `Result.Publisher` (or an `Empty`), instead of wrapping the publisher in an operator. A failure
// passes through unchanged. They are more specific than the generic operators, so they win where they apply.

extension Result.Publisher where Success: Equatable {
    /// Publishes whether the output equals `output`, or the failure.
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// Publishes the result: one value has no duplicates.
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Success: Comparable {
    /// Publishes the result.
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result.
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
    /// Publishes whether the output satisfies the predicate, or the failure.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the output satisfies the throwing predicate, or the failure or the error thrown.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result<Bool, any Error> { try predicate(result.get()) })
    }

    /// Publishes the output in an array, or the failure.
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// Publishes the result.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the output, or the error the predicate throws, or the failure. As in Combine, the predicate runs
    /// once on a success, comparing the output with itself, so that a throwing predicate fails the publisher.
    public func tryMin(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result<Output, any Error> {
                let output = try result.get()
                _ = try areInIncreasingOrder(output, output)
                return output
            })
    }

    /// Publishes the result.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the output, or the error the predicate throws, or the failure. As in Combine, the predicate runs
    /// once on a success, comparing the output with itself, so that a throwing predicate fails the publisher.
    public func tryMax(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result<Output, any Error> {
                let output = try result.get()
                _ = try areInIncreasingOrder(output, output)
                return output
            })
    }

    /// Publishes whether the output satisfies the predicate, or the failure.
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the output satisfies the throwing predicate, or the failure or the error thrown.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result<Bool, any Error> { try predicate(result.get()) })
    }

    /// Publishes one, or the failure.
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// Publishes the result.
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result.
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// Publishes no value, only the completion.
    ///
    /// Like Combine's, the returned `Empty` finishes: it drops a failure along with the output.
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Publishes the transformed output, or the failure.
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Publishes the transformed output, or the failure or the error the transform throws.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result<T, any Error> { try transform(result.get()) })
    }

    /// Publishes the output, or the transformed failure.
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// Publishes the result of combining the initial result with the output, or the failure.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the result of combining the initial result with the output, or the failure or the error thrown.
    public func tryReduce<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result<T, any Error> { try nextPartialResult(initialResult, result.get()) })
    }

    /// Publishes the result.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the output, or the error the predicate throws, or the failure. As in Combine, the predicate runs
    /// once on a success, comparing the output with itself, so that a throwing predicate fails the publisher.
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result<Output, any Error> {
                let output = try result.get()
                _ = try predicate(output, output)
                return output
            })
    }

    /// Publishes the output, or `output` in place of the failure.
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value): return Result<Output, Never>.Publisher(value)
        case .failure: return Result<Output, Never>.Publisher(output)
        }
    }

    /// Publishes the result: it is never empty.
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result: retrying it gives the same outcome.
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result of combining the initial result with the output, or the failure.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the result of combining the initial result with the output, or the failure or the error thrown.
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result<T, any Error> { try nextPartialResult(initialResult, result.get()) })
    }
}

extension Result.Publisher where Failure == Never {
    /// Publishes the output with the given failure type.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        switch result {
        case .success(let value): return Result<Output, E>.Publisher(value)
        }
    }
}
