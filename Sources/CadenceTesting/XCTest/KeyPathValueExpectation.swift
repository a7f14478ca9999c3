import CadenceSupport

#if canImport(XCTest)
import Foundation
import XCTest

/// How a key-path expectation learns that its object changed.
enum KeyPathObserving: Equatable {
    /// The `ObservableObject`'s `objectWillChange`, then a read on the next turn (the main queue, or the clock).
    case objectWillChange
    /// Key-value observing of the key path (Apple platforms, and only when asked for by name).
    case keyValueObserving
}

/// What a key-path expectation does after reading the property.
enum ReadAction {
    case none
    case fulfil
    /// Report an over-fulfilment, with every value read so far.
    case overFulfil([String])
}

/// An `XCTestExpectation` fulfilled when a property of an object, named by a Swift key path, has a value — read
/// after each turn of changes has completed.
///
/// For an `ObservableObject`, it listens to `objectWillChange`. `@Published` sends that before the property is
/// stored (in its `willSet`), so reading the property there sees the *old* value — the classic flaky test. This
/// expectation reads it on the next turn instead: on the main queue, after whatever changed the object on the main
/// thread has returned, or — given a `clock` — on the virtual clock, after the clock's current action:
///
/// ```swift
/// model.load()
/// let loaded = expectation(for: model, keyPath: \.name, toBe: "Blob")
/// wait(for: [loaded], timeout: 1)
/// ```
///
/// The expectation reads the property once when it is made: made before the action, with the property already at
/// the expected value, it is fulfilled at once and the wait proves nothing. Make it after the action, or expect a
/// value the property does not start with.
///
/// Change the object on the main thread (as SwiftUI requires of an `ObservableObject`), or on the virtual clock you
/// pass: a read on the main queue is ordered after a change made on the main thread, not after one made on another
/// thread. The main queue runs while XCTest waits — `wait(for:timeout:)` on the main thread runs the main run loop,
/// and on Linux `await fulfillment(of:timeout:)` in an `async` test leaves the main thread running it too.
///
/// It reads the settled value after each turn of changes, not every value the property passes through: the changes
/// made in one turn of the main queue (or in one action of the clock) are read once, after the last of them. So
/// `model.flag = true; model.flag = false`, run on the main thread in one go, never shows `true` to an expectation
/// for `true`. When the values in between matter, expect on the property's publisher, which sends each of them:
/// `PublisherValueExpectation(model.$flag, expectedValue: true)`. (Key-value observing, on Apple platforms, reads
/// after every change instead; ask for it by name, `init(keyValueObserving:keyPath:expectedValue:)`, for an
/// `@objc dynamic` property. `init(object:…)` always uses `objectWillChange`, also for an `NSObject` model.)
///
/// The property is read once when the expectation is made: a property that already has the value fulfils it at
/// once. The property taking the value a second time — leaving it, then coming back — is an over-fulfilment,
/// reported as an ordinary failure when `assertForOverFulfill` is true (as for expectations made by `XCTestCase`
/// methods, and by `expectation(for:keyPath:toBe:)`; an expectation made with `init` starts with it false, as
/// `XCTestExpectation` does):
///
/// ```text
/// KeyPathValueExpectation(KeyPath<Model, Bool>, expectedValue: false) was fulfilled more than once: the value became false again after the expectation had already been fulfilled (values read: [false, true, false]). Set assertForOverFulfill to false to allow it.
/// ```
public final class KeyPathValueExpectation<Object: AnyObject, Value>: XCTestExpectation, @unchecked Sendable {
    // `state` (a Locked) guards every mutable property; the lets are immutable. The object is only read through the
    // key path, on the main queue or the clock (see the type's documentation).
    struct State {
        var readScheduled = false
        var lastMatched: Bool?
        var fulfilled = false
        var reportedOverFulfilment = false
        /// Each value read that differs from the one before, as failure messages print it.
        var read: [String] = []
        var observation: (any Cancellable)?
        /// How the object is observed; set once, by the initialiser.
        var observing: KeyPathObserving?
        /// Whether a wait on virtual time returned with the expectation unfulfilled: it then reads nothing more.
        var closed = false
        /// Whether the closed expectation still reads, for a wait that runs the clock on past its budget: it then
        /// notes in `late` whether it would have been fulfilled.
        var watching = false
        var late = LateWatch.waiting
        /// The expectation registered with the test case that this one fulfils instead of itself, if any: the one
        /// `expectation(for:keyPath:…)` returns.
        var registered: XCTestExpectation?
        /// What the registered expectation is called, without the values read: this one's description, or what the
        /// test renamed it to.
        var registeredName = ""
        /// The description last written into the registered expectation.
        var registeredDescription = ""
    }

    let object: Object
    let keyPath: KeyPath<Object, Value>
    private let matches: (Value) -> Bool
    private let clock: VirtualClock?
    private let call: String
    private let wanted: String
    private let reporter: FailureReporter
    private let location: SourceCodeLocation
    private let state = Locked(State())

    init(
        object: Object,
        keyPath: KeyPath<Object, Value>,
        call: String,
        wanted: String,
        matches: @escaping (Value) -> Bool,
        clock: VirtualClock?,
        description: String?,
        location: SourceCodeLocation
    ) {
        self.object = object
        self.keyPath = keyPath
        self.matches = matches
        self.clock = clock
        self.call = call
        self.wanted = wanted
        reporter = FailureReporter.resolved
        self.location = location
        super.init(description: description ?? call)
    }

    deinit {
        state.withLock { $0.observation }?.cancel()
    }

    #if !canImport(ObjectiveC)
    // Linux only: Apple's rules for `fulfill()`, when enforced (see `AppleFulfilmentRules`).
    let appleRules = Locked(AppleFulfilmentRules())

    /// Fulfils the expectation (on Linux, unless the call breaks Apple's rules and `CADENCE_APPLE_XCTEST_RULES` is 1).
    public override func fulfill(_ file: StaticString = #file, line: Int = #line) {
        if mayFulfill(file, line) { super.fulfill(file, line: line) }
    }
    #endif

    /// What the expectation is for — by default its call,
    /// `KeyPathValueExpectation(\Model.count, expectedValue: 3)` — followed, while it is unfulfilled, by the values
    /// read so far, so that XCTest's timeout message names them.
    public override var expectationDescription: String {
        get {
            let (fulfilled, read) = state.withLock { ($0.fulfilled, $0.read) }
            return super.expectationDescription + (fulfilled ? "" : XCTestText.keyPathReadSoFar(read))
        }
        set { super.expectationDescription = newValue }
    }

    /// Every distinct value read so far, in order, as failure messages print values.
    public var valuesRead: [String] { state.withLock { $0.read } }

    // MARK: Reading

    /// Notes that the object is about to change, and schedules one read for after the change.
    func objectWillChange() {
        let schedule = state.withLock { state -> Bool in
            defer { state.readScheduled = true }
            return !state.readScheduled
        }
        guard schedule else { return }
        if let clock {
            clock.schedule(after: .zero) { [self] in readNow() }
        } else {
            DispatchQueue.main.async { [self] in readNow() }
        }
    }

    /// Reads the property now and fulfils the expectation when it has just taken the value.
    func readNow() {
        let closed = state.withLock { state -> Bool in
            state.readScheduled = false
            return state.closed && !state.watching
        }
        guard !closed else { return }
        let value = object[keyPath: keyPath]
        let matched = matches(value)
        let text = ValueText.describe(value)
        let action = state.withLock { state -> ReadAction in
            if state.watching {
                if matched, state.late == .waiting { state.late = .arrived }
                return .none
            }
            guard !state.closed else { return .none }
            if state.read.last != text || state.lastMatched != matched { state.read.append(text) }
            defer { state.lastMatched = matched }
            guard matched, state.lastMatched != true else { return .none }
            if !state.fulfilled {
                state.fulfilled = true
                return .fulfil
            }
            if state.reportedOverFulfilment { return .none }
            return .overFulfil(state.read)
        }
        let registered = describeRegistered()
        switch action {
        case .none:
            break
        case .fulfil:
            if let registered {
                fulfil(registered)
            } else {
                fulfill()
            }
        case let .overFulfil(read):
            guard (registered ?? self).assertForOverFulfill else { return }
            let first = state.withLock { state -> Bool in
                defer { state.reportedOverFulfilment = true }
                return !state.reportedOverFulfilment
            }
            guard first else { return }
            reporter.report(
                ExpectationFailure(
                    message: XCTestText.keyPathOverFulfilled(call, wanted: wanted, read: read),
                    location: location
                ))
        }
    }

    // MARK: Standing behind a registered expectation

    /// Fulfils `registered` instead of this expectation from now on — at once if this one is fulfilled already — and
    /// keeps its description naming the values read while it is unfulfilled. The registered expectation's
    /// `assertForOverFulfill` decides whether taking the value again is reported.
    func fulfilInstead(_ registered: XCTestExpectation) {
        let fulfilled = state.withLock { state -> Bool in
            state.registered = registered
            state.registeredName = super.expectationDescription
            state.registeredDescription = registered.expectationDescription
            return state.fulfilled
        }
        describeRegistered()
        if fulfilled { fulfil(registered) }
    }

    /// Writes the values read so far into the registered expectation's description while it is unfulfilled, after
    /// the name it has — unless the test renamed it since the last write, then after the test's name; returns the
    /// registered expectation, if any.
    @discardableResult
    private func describeRegistered() -> XCTestExpectation? {
        guard let registered = state.withLock({ $0.registered }) else { return nil }
        let current = registered.expectationDescription
        let text = state.withLock { state -> String in
            if current != state.registeredDescription { state.registeredName = current }
            let text = state.registeredName + (state.fulfilled ? "" : XCTestText.keyPathReadSoFar(state.read))
            state.registeredDescription = text
            return text
        }
        if text != current { registered.expectationDescription = text }
        return registered
    }

    /// Fulfils the registered expectation (on Linux, unless the call breaks Apple's rules and
    /// `CADENCE_APPLE_XCTEST_RULES` is 1: this expectation counts the calls it makes for it).
    private func fulfil(_ registered: XCTestExpectation) {
        #if !canImport(ObjectiveC)
        guard mayFulfill(#file, #line) else { return }
        #endif
        registered.fulfill()
    }

    /// `\Model.count` when Swift can name the key path's property, else `KeyPath<Model, Int>`: the key path of a
    /// property behind a property wrapper, such as `@Published`, prints as an address that changes from run to run.
    static func text(of keyPath: KeyPath<Object, Value>) -> String {
        let text = String(describing: keyPath)
        if text.hasPrefix("\\"), !text.contains("<") { return text }
        return "KeyPath<\(TypeName.describe(Object.self)), \(TypeName.describe(Value.self))>"
    }

    /// Keeps `observation`, made the way `observing` says, until the expectation goes.
    func observe(_ observation: any Cancellable, by observing: KeyPathObserving) {
        state.withLock {
            $0.observation = observation
            $0.observing = observing
        }
    }

    /// How the expectation observes its object: `objectWillChange`, unless key-value observing was asked for by
    /// name (`init(keyValueObserving:…)`, Apple platforms only).
    var observing: KeyPathObserving? { state.withLock { $0.observing } }
}

extension KeyPathValueExpectation where Object: ObservableObject {
    /// An expectation fulfilled when `object[keyPath: keyPath]` is equal to `expectedValue`, read after each change
    /// of `object` has completed — on the main queue, or on `clock` when one is given.
    public convenience init(
        object: Object,
        keyPath: KeyPath<Object, Value>,
        expectedValue: Value,
        clock: VirtualClock? = nil,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where Value: Equatable {
        let expected = ValueText.describe(expectedValue)
        self.init(
            object: object, keyPath: keyPath,
            call: "KeyPathValueExpectation(\(Self.text(of: keyPath)), expectedValue: \(expected))", wanted: expected,
            matches: { $0 == expectedValue }, clock: clock, description: description,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        startObserving()
    }

    /// An expectation fulfilled when `object[keyPath: keyPath]` satisfies `condition`, read after each change of
    /// `object` has completed — on the main queue, or on `clock` when one is given.
    public convenience init(
        object: Object,
        keyPath: KeyPath<Object, Value>,
        condition: @escaping (Value) -> Bool,
        clock: VirtualClock? = nil,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            object: object, keyPath: keyPath,
            call: "KeyPathValueExpectation(\(Self.text(of: keyPath)), condition:)",
            wanted: "a value satisfying the condition",
            matches: condition, clock: clock, description: description,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        startObserving()
    }

    private func startObserving() {
        readNow()
        observe(object.objectWillChange.sink { [weak self] _ in self?.objectWillChange() }, by: .objectWillChange)
    }
}

#if !canImport(ObjectiveC)
extension KeyPathValueExpectation: AppleRuledExpectation {}
#endif

extension KeyPathValueExpectation: VirtualTimeWaitable {
    func settleForWait() {
        let scheduled = state.withLock { $0.readScheduled }
        if scheduled { readNow() }
    }

    func closeAfterWait() {
        let observation = state.withLock { state -> (any Cancellable)? in
            guard !state.fulfilled else { return nil }
            state.closed = true
            state.watching = false
            defer { state.observation = nil }
            return state.observation
        }
        observation?.cancel()
    }

    func watchAfterWait() {
        state.withLock { state in
            guard !state.fulfilled else { return }
            state.closed = true
            state.watching = true
        }
    }

    var lateWatch: LateWatch {
        settleForWait()
        return state.withLock { $0.late }
    }
}

extension XCTestCase {
    /// An expectation fulfilled when `object[keyPath: keyPath]` is equal to `expectedValue`, read after each change
    /// of `object` has completed (see ``KeyPathValueExpectation``).
    ///
    /// ```swift
    /// model.load()
    /// let loaded = expectation(for: model, keyPath: \.name, toBe: "Blob")
    /// ```
    ///
    /// Like XCTest's own `expectation(description:)`, it is registered with the test case — it is the expectation
    /// that call makes, fulfilled by a ``KeyPathValueExpectation`` the test case keeps until its teardown — so
    /// `waitForExpectations(timeout:)` waits for it, and one that no wait names fails the test as unwaited. It
    /// asserts for over-fulfilment (`assertForOverFulfill` is true): the property taking the value a second time is
    /// reported. While it is unfulfilled, its description names the values read so far, for XCTest's timeout message:
    /// `KeyPathValueExpectation(KeyPath<Model, Bool>, expectedValue: true) (read [false] so far)`.
    @discardableResult
    public func expectation<Object: ObservableObject, Value: Equatable>(
        for object: Object,
        keyPath: KeyPath<Object, Value>,
        toBe expectedValue: Value,
        clock: VirtualClock? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> XCTestExpectation {
        registered(
            KeyPathValueExpectation(
                object: object, keyPath: keyPath, expectedValue: expectedValue, clock: clock,
                fileID: fileID, filePath: filePath, line: line, column: column
            ), filePath: filePath, line: line)
    }

    /// An expectation fulfilled when `object[keyPath: keyPath]` satisfies `condition`, read after each change of
    /// `object` has completed (see ``KeyPathValueExpectation``); registered with the test case, as
    /// `expectation(for:keyPath:toBe:clock:fileID:filePath:line:column:)` is.
    @discardableResult
    public func expectation<Object: ObservableObject, Value>(
        for object: Object,
        keyPath: KeyPath<Object, Value>,
        clock: VirtualClock? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        where condition: @escaping (Value) -> Bool
    ) -> XCTestExpectation {
        registered(
            KeyPathValueExpectation(
                object: object, keyPath: keyPath, condition: condition, clock: clock,
                fileID: fileID, filePath: filePath, line: line, column: column
            ), filePath: filePath, line: line)
    }

    /// An expectation made by `expectation(description:)` — registered with the test case — that `shim` fulfils;
    /// the running test case's scope keeps `shim` (and so its observation) until the teardown.
    private func registered<Object, Value>(
        _ shim: KeyPathValueExpectation<Object, Value>, filePath: StaticString, line: UInt
    ) -> XCTestExpectation {
        #if canImport(ObjectiveC)
        let registered = expectation(description: shim.expectationDescription)
        #else
        // Linux's XCTest reports an unwaited expectation at the file and line it was made at: the test's.
        let registered = expectation(description: shim.expectationDescription, file: filePath, line: Int(line))
        #endif
        registered.assertForOverFulfill = true
        shim.fulfilInstead(registered)
        if let scope = XCTestCaseObserver.scopeForNewExpectation() {
            scope.keep(shim, fulfilling: registered)
        } else {
            addTeardownBlock { withExtendedLifetime(shim) {} }
        }
        return registered
    }
}
#endif
