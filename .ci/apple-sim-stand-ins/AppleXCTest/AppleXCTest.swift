// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (XCTest's own names, as Apple spells them.)
// `.ci/apple-sim` only: the part of Apple's XCTest that Cadence, its tests and the Examples use, declared with the
// signatures Apple's SDK gives Swift (Xcode 16 / 26), so that the copy compiled by the simulation (where every
// `import XCTest` reads `import AppleXCTest`) fails where a Mac would fail. It is compiled, never run: every body
// traps. What it leaves out is the point — the shapes only swift-corelibs-xctest has:
//   - `wait(for:timeout:enforceOrder:file:line:)` and `XCTWaiter.wait(for:timeout:enforceOrder:file:line:)`: Apple's
//     waits take no source location;
//   - `XCTestExpectation.fulfill(_:line:)`: Apple's `fulfill()` takes none either;
//   - `XCTestCase.recordFailure(withDescription:inFile:atLine:expected:)`: Apple's tests record an `XCTIssue` with
//     `record(_:)`;
//   - an `XCTestObservation` that is not an `NSObjectProtocol`: Apple's observers are Objective-C objects.
// `XCTestExpectation` is Sendable here, as on Apple platforms; `XCTestCase` is not. A declaration Cadence starts to
// use goes in with Apple's signature (developer.apple.com/documentation/xctest), never with Linux's.
import Foundation

/// Every body of the stand-in: it is compiled, never run.
private func standIn(_ function: StaticString = #function) -> Never {
    fatalError("AppleXCTest is a compile-only stand-in for Apple's XCTest; \(function) cannot run")
}

// MARK: - Tests and test cases

open class XCTest: NSObject {
    open var name: String { standIn() }
    open var testCaseCount: Int { standIn() }
    /// The run of this test so far, while it runs.
    open var testRun: XCTestRun? { standIn() }
    open func run() { standIn() }
    open func setUp() {}
    open func tearDown() {}
    open func setUpWithError() throws {}
    open func tearDownWithError() throws {}
    open func setUp() async throws {}
    open func tearDown() async throws {}
}

/// What a test's run has recorded.
open class XCTestRun: NSObject {
    open var failureCount: Int { standIn() }
    open var unexpectedExceptionCount: Int { standIn() }
    /// Failures and unexpected exceptions together.
    open var totalFailureCount: Int { standIn() }
}

open class XCTestCase: XCTest {
    /// Run once before the class's first test, and once after its last.
    open class func setUp() {}
    open class func tearDown() {}

    open var continueAfterFailure: Bool {
        get { standIn() }
        set { standIn() }
    }

    open var executionTimeAllowance: TimeInterval {
        get { standIn() }
        set { standIn() }
    }

    /// Apple's one way to record a failure: Linux's `recordFailure(withDescription:inFile:atLine:expected:)` is absent.
    open func record(_ issue: XCTIssue) { standIn() }

    open func addTeardownBlock(_ block: @escaping () -> Void) { standIn() }
    open func addTeardownBlock(_ block: @escaping @Sendable () async throws -> Void) { standIn() }

    open func expectation(description: String) -> XCTestExpectation { standIn() }

    open func expectation(
        for predicate: NSPredicate, evaluatedWith object: Any? = nil, handler: XCTNSPredicateExpectation.Handler? = nil
    ) -> XCTestExpectation {
        standIn()
    }

    open func expectation(
        forNotification notificationName: NSNotification.Name, object objectToObserve: Any? = nil,
        notificationCenter: NotificationCenter = .default, handler: XCTNSNotificationExpectation.Handler? = nil
    ) -> XCTestExpectation {
        standIn()
    }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    open func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval) { standIn() }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    open func wait(
        for expectations: [XCTestExpectation], timeout seconds: TimeInterval,
        enforceOrder enforceOrderOfFulfillment: Bool
    ) {
        standIn()
    }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    open func waitForExpectations(timeout: TimeInterval, handler: XCWaitCompletionHandler? = nil) { standIn() }
}

extension XCTestCase {
    public func fulfillment(
        of expectations: [XCTestExpectation], timeout seconds: TimeInterval = .infinity, enforceOrder: Bool = false
    ) async {
        standIn()
    }
}

extension XCTestCase: XCTWaiterDelegate {}

public typealias XCWaitCompletionHandler = (Error?) -> Void

// MARK: - Test observation

/// Apple's is `@objc` with every requirement `optional`; Linux's compiler has neither, so the requirements have
/// empty default implementations here, which lets a conforming type implement only some of them, as on a Mac.
public protocol XCTestObservation: NSObjectProtocol {
    func testBundleWillStart(_ testBundle: Bundle)
    func testBundleDidFinish(_ testBundle: Bundle)
    func testSuiteWillStart(_ testSuite: XCTestSuite)
    func testSuiteDidFinish(_ testSuite: XCTestSuite)
    func testCaseWillStart(_ testCase: XCTestCase)
    func testCaseDidFinish(_ testCase: XCTestCase)
}

extension XCTestObservation {
    public func testBundleWillStart(_ testBundle: Bundle) {}
    public func testBundleDidFinish(_ testBundle: Bundle) {}
    public func testSuiteWillStart(_ testSuite: XCTestSuite) {}
    public func testSuiteDidFinish(_ testSuite: XCTestSuite) {}
    public func testCaseWillStart(_ testCase: XCTestCase) {}
    public func testCaseDidFinish(_ testCase: XCTestCase) {}
}

open class XCTestObservationCenter: NSObject {
    open class var shared: XCTestObservationCenter { standIn() }
    open func addTestObserver(_ testObserver: any XCTestObservation) { standIn() }
    open func removeTestObserver(_ testObserver: any XCTestObservation) { standIn() }
}

open class XCTestSuite: XCTest {}

// MARK: - Expectations and waiters

open class XCTestExpectation: NSObject, @unchecked Sendable {
    public init(description expectationDescription: String) { standIn() }

    open var expectationDescription: String {
        get { standIn() }
        set { standIn() }
    }

    open var isInverted: Bool {
        get { standIn() }
        set { standIn() }
    }

    open var expectedFulfillmentCount: Int {
        get { standIn() }
        set { standIn() }
    }

    open var assertForOverFulfill: Bool {
        get { standIn() }
        set { standIn() }
    }

    /// Apple's `fulfill()` takes no source location (Linux's is `fulfill(_:line:)`).
    open func fulfill() { standIn() }
}

open class XCTNSPredicateExpectation: XCTestExpectation, @unchecked Sendable {
    public typealias Handler = () -> Bool
    public init(predicate: NSPredicate, object: Any? = nil) { standIn() }
}

open class XCTNSNotificationExpectation: XCTestExpectation, @unchecked Sendable {
    public typealias Handler = (Notification) -> Bool
    public init(
        name notificationName: NSNotification.Name, object: Any? = nil,
        notificationCenter: NotificationCenter = .default
    ) {
        standIn()
    }
}

public protocol XCTWaiterDelegate: AnyObject {
    func waiter(
        _ waiter: XCTWaiter, didTimeoutWithUnfulfilledExpectations unfulfilledExpectations: [XCTestExpectation]
    )
    func waiter(
        _ waiter: XCTWaiter, fulfillmentDidViolateOrderingConstraintsFor expectation: XCTestExpectation,
        requiredExpectation: XCTestExpectation
    )
    func waiter(_ waiter: XCTWaiter, didFulfillInvertedExpectation expectation: XCTestExpectation)
    func nestedWaiter(_ waiter: XCTWaiter, wasInterruptedByTimedOutWaiter outerWaiter: XCTWaiter)
}

extension XCTWaiterDelegate {
    public func waiter(
        _ waiter: XCTWaiter, didTimeoutWithUnfulfilledExpectations unfulfilledExpectations: [XCTestExpectation]
    ) {}
    public func waiter(
        _ waiter: XCTWaiter, fulfillmentDidViolateOrderingConstraintsFor expectation: XCTestExpectation,
        requiredExpectation: XCTestExpectation
    ) {}
    public func waiter(_ waiter: XCTWaiter, didFulfillInvertedExpectation expectation: XCTestExpectation) {}
    public func nestedWaiter(_ waiter: XCTWaiter, wasInterruptedByTimedOutWaiter outerWaiter: XCTWaiter) {}
}

/// Apple's waiter: its waits take no source location (Linux's add `file:line:`).
open class XCTWaiter: NSObject {
    public enum Result: Int, @unchecked Sendable {
        case completed = 1
        case timedOut = 2
        case incorrectOrder = 3
        case invertedFulfillment = 4
        case interrupted = 5
    }

    public init(delegate: XCTWaiterDelegate? = nil) { standIn() }

    open weak var delegate: XCTWaiterDelegate? {
        get { standIn() }
        set { standIn() }
    }

    open var fulfilledExpectations: [XCTestExpectation] { standIn() }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    @discardableResult
    open func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval) -> XCTWaiter.Result {
        standIn()
    }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    @discardableResult
    open func wait(
        for expectations: [XCTestExpectation], timeout seconds: TimeInterval,
        enforceOrder enforceOrderOfFulfillment: Bool
    ) -> XCTWaiter.Result {
        standIn()
    }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    open class func wait(for expectations: [XCTestExpectation], timeout seconds: TimeInterval) -> XCTWaiter.Result {
        standIn()
    }

    @available(*, noasync, message: "Use await fulfillment(of:timeout:enforceOrder:) instead.")
    open class func wait(
        for expectations: [XCTestExpectation], timeout seconds: TimeInterval,
        enforceOrder enforceOrderOfFulfillment: Bool
    ) -> XCTWaiter.Result {
        standIn()
    }
}

extension XCTWaiter {
    @discardableResult
    public func fulfillment(
        of expectations: [XCTestExpectation], timeout seconds: TimeInterval = .infinity, enforceOrder: Bool = false
    ) async -> XCTWaiter.Result {
        standIn()
    }

    @discardableResult
    public class func fulfillment(
        of expectations: [XCTestExpectation], timeout seconds: TimeInterval = .infinity, enforceOrder: Bool = false
    ) async -> XCTWaiter.Result {
        standIn()
    }
}

// MARK: - Issues

public struct XCTIssue {
    public enum IssueType: Int, Sendable {
        case assertionFailure = 0
        case thrownError = 1
        case uncaughtException = 2
        case performanceRegression = 3
        case system = 4
        case unmatchedExpectedFailure = 5
    }

    public var type: IssueType
    public var compactDescription: String
    public var detailedDescription: String?
    public var sourceCodeContext: XCTSourceCodeContext
    public var associatedError: Error?

    public init(
        type: IssueType, compactDescription: String, detailedDescription: String? = nil,
        sourceCodeContext: XCTSourceCodeContext = XCTSourceCodeContext(), associatedError: Error? = nil
    ) {
        standIn()
    }
}

open class XCTSourceCodeContext: NSObject {
    public init(location: XCTSourceCodeLocation? = nil) { standIn() }
    open var location: XCTSourceCodeLocation? { standIn() }
}

open class XCTSourceCodeLocation: NSObject {
    public init(fileURL: URL, lineNumber: Int) { standIn() }
    public convenience init(filePath: String, lineNumber: Int) { standIn() }
    open var fileURL: URL { standIn() }
    open var lineNumber: Int { standIn() }
}

// MARK: - Assertions and skipping (XCTest's Swift overlay)

public func XCTFail(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) { standIn() }

public func XCTAssert(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertTrue(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertFalse(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertNil(
    _ expression: @autoclosure () throws -> Any?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertNotNil(
    _ expression: @autoclosure () throws -> Any?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertEqual<T: Equatable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertEqual<T: FloatingPoint>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T, accuracy: T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertNotEqual<T: Equatable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertIdentical(
    _ expression1: @autoclosure () throws -> AnyObject?, _ expression2: @autoclosure () throws -> AnyObject?,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertGreaterThan<T: Comparable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertLessThan<T: Comparable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTAssertThrowsError<T>(
    _ expression: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line, _ errorHandler: (_ error: Error) -> Void = { _ in }
) {
    standIn()
}

public func XCTAssertNoThrow<T>(
    _ expression: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    standIn()
}

public func XCTUnwrap<T>(
    _ expression: @autoclosure () throws -> T?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) throws -> T {
    standIn()
}

public struct XCTSkip: Error {
    public init(_ message: String? = nil, file: StaticString = #filePath, line: UInt = #line) { standIn() }
}

public func XCTSkipIf(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    standIn()
}

public func XCTSkipUnless(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String? = nil,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    standIn()
}
