#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension VirtualClock {
    /// Where a virtual clock reports misuse that it survives: a runaway `run()`, an interval of zero or less, work
    /// scheduled after the clock's test ended.
    ///
    /// A clock keeps the reporter in effect when it was created, so a report made later, from any thread, still
    /// reaches the test that made the clock. Until a test binds another, messages go to standard error and do not fail
    /// the test; a reporter that records into the running test can be bound with `VirtualClock.$issueReporter`.
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
    }

    /// The reporter a clock created here uses; standard error unless a test binds another.
    @TaskLocal public static var issueReporter: IssueReporter = .standardError
}
