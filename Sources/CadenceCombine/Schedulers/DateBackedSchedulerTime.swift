import Foundation

/// A scheduler time that is a `Date`, as `RunLoop`'s and `OperationQueue`'s are, with a stride in seconds.
protocol DateBackedSchedulerTime: Strideable where Stride: TimeIntervalSchedulerStride {
    /// The date represented by this time.
    var date: Date { get }

    /// The time at `date`.
    init(_ date: Date)
}

extension DateBackedSchedulerTime {
    /// The interval from this time to `other`, in seconds.
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// The time `n` seconds after this one.
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.magnitude))
    }
}
