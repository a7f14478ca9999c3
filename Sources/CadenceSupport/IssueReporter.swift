#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where Cadence reports misuse that it survives: a virtual clock's runaway `run()`, an interval of zero or less, work
/// scheduled after the clock's test ended; an operator given an interval it cannot use.
///
/// Users reach it as `VirtualClock.IssueReporter`; it lives here so that every module of the package reports through
/// the same channel.
public struct IssueReporter: Sendable {
    private let body: @Sendable (String) -> Void

    /// A reporter that hands each message to `report`.
    public init(_ report: @escaping @Sendable (_ message: String) -> Void) {
        body = report
    }

    /// Reports `message`.
    public func report(_ message: String) {
        body(message)
    }

    /// Writes each message to standard error as one line, `Cadence: <message>`.
    public static let standardError = IssueReporter { message in
        let line = "Cadence: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { buffer in
            write(2, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// The reporter in effect here; standard error unless a test binds another.
    @TaskLocal public static var current: IssueReporter = .standardError
}
