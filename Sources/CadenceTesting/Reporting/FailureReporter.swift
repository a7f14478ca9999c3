#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where failed expectations go: the running Swift Testing test, the running XCTest test, or a reporter a test binds.
///
/// `expect(_:)` picks its reporter once, when it is called, and keeps it: a failure found later — at the end of the
/// chain, at the end of the test, or when a late event arrives on another thread — still lands in the test that wrote
/// the expectation. The choice, in order:
///
/// 1. the task-local ``current`` reporter, when one is bound;
/// 2. Swift Testing (`Issue.record` at the failing call's `SourceLocation`) when a Swift Testing test is running;
/// 3. XCTest (`XCTFail(_:file:line:)`) otherwise.
///
/// Bind a reporter to collect failures instead of failing the test — the way to assert a failure's exact text:
///
/// ```swift
/// let failures = recordingFailures {
///     expect(Just(1)).toEmit(2)
/// }
/// #expect(failures.map(\.message).first?.hasPrefix("toEmit(2) failed") == true)
/// ```
public struct FailureReporter: Sendable {
    private let body: @Sendable (ExpectationFailure) -> Void

    /// A reporter that hands each failure to `report`.
    public init(_ report: @escaping @Sendable (_ failure: ExpectationFailure) -> Void) {
        body = report
    }

    /// Reports `failure`.
    public func report(_ failure: ExpectationFailure) {
        body(failure)
    }

    /// The reporter that expectations created here use instead of the test framework's, when one is bound.
    @TaskLocal public static var current: FailureReporter?

    /// The reporter an expectation created now reports to: ``current`` when bound, else the running test framework.
    public static var resolved: FailureReporter {
        if let current { return current }
        #if canImport(Testing)
        if Test.current != nil { return .swiftTesting }
        #endif
        #if canImport(XCTest)
        return .xcTest
        #else
        return .standardError
        #endif
    }

    #if canImport(Testing)
    /// Records each failure as a Swift Testing issue at the failure's source location.
    public static let swiftTesting = FailureReporter { failure in
        let location = failure.location
        Issue.record(
            Comment(rawValue: failure.message),
            sourceLocation: SourceLocation(
                fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
            )
        )
    }
    #endif

    #if canImport(XCTest)
    /// Fails the running XCTest test with each failure, at the failure's file and line.
    public static let xcTest = FailureReporter { failure in
        XCTFail(failure.message, file: failure.location.staticFilePath, line: UInt(failure.location.line))
    }
    #endif

    /// Writes each failure to standard error, as `<location>: error: <message>`; it fails nothing.
    public static let standardError = FailureReporter { failure in
        let text = "\(failure.location): error: \(failure.message)\n"
        _ = text.utf8CString.withUnsafeBufferPointer { buffer in
            write(2, buffer.baseAddress, buffer.count - 1)
        }
    }
}

/// Runs `body` with a reporter that collects every failure of the expectations it creates, and returns them in the
/// order they were reported, instead of failing the test.
///
/// Failures reported after `body` returns (a late event reaching an expectation made inside) are not included.
public func recordingFailures(_ body: () throws -> Void) rethrows -> [ExpectationFailure] {
    let log = FailureLog()
    try FailureReporter.$current.withValue(log.reporter) { try body() }
    return log.failures
}

/// Runs `body` with a reporter that collects every failure of the expectations it creates, and returns them in the
/// order they were reported, instead of failing the test.
public func recordingFailures(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Void
) async rethrows -> [ExpectationFailure] {
    let log = FailureLog()
    try await FailureReporter.$current.withValue(log.reporter) { try await body() }
    return log.failures
}

/// A thread-safe list of reported failures, with a reporter that appends to it.
public final class FailureLog: Sendable {
    private let storage = Locked<[ExpectationFailure]>([])

    /// An empty log.
    public init() {}

    /// A reporter that appends each failure to this log.
    public var reporter: FailureReporter {
        FailureReporter { [self] failure in storage.withLock { $0.append(failure) } }
    }

    /// Every failure reported so far, in order.
    public var failures: [ExpectationFailure] { storage.withLock { $0 } }

    /// The messages of every failure reported so far, in order.
    public var messages: [String] { failures.map(\.message) }
}
