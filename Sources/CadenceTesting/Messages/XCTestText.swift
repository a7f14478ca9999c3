import CadenceSupport

/// The sentences Cadence writes about XCTest's test cases themselves, rather than about one chain.
enum XCTestText {
    /// What a wait on virtual time whose budget ran out learnt by running the clock on, as the expectation DSL's
    /// budget steps do, after the expectations it names: when each would have been fulfilled, or that it had not
    /// been by the tick the wait stopped at. Nil when the wait ran nothing (nothing was left scheduled).
    ///
    /// ```text
    /// it arrived at tick 2000, 1000 ticks late
    /// the first arrived at tick 12, 2 ticks late; the second had not arrived by tick 30, when the clock had nothing left to run
    /// ```
    static func lateArrivals(_ lookahead: WaitLookahead) -> String? {
        guard lookahead.actionsRun > 0 else { return nil }
        let single = lookahead.arrivals.count == 1
        return lookahead.arrivals.enumerated().map { index, arrival in
            let subject = single ? "it" : ordinal(index)
            switch arrival {
            case let .arrived(tick):
                let late = VirtualTicks.describe(.milliseconds(tick - lookahead.budgetEnd))
                return "\(subject) arrived at tick \(tick), \(late) late"
            case let .ruledOut(tick):
                return "\(subject) could no longer arrive from tick \(tick), when its publisher completed"
            case .notYet:
                let why =
                    switch lookahead.stop {
                    case let .actionLimit(actions): "after the wait ran \(actions.formatted) actions past its budget"
                    case .idle, .decided: "when the clock had nothing left to run"
                    }
                return "\(subject) had not arrived by tick \(lookahead.stoppedAt), \(why)"
            }
        }.joined(separator: "; ")
    }

    /// `"the first"` … `"the tenth"`, then `"expectation 11"`, for the expectation at `index` of a wait's list.
    private static func ordinal(_ index: Int) -> String {
        let words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
        return index < words.count ? "the \(words[index])" : "expectation \(index + 1)"
    }

    /// A failure found after the XCTest test case it belongs to had finished, as written to standard error:
    ///
    /// ```text
    /// LateEventXCTests.testA: this failure was found after the test had finished, so it fails no test: expect(…) …
    /// ```
    static func stray(_ failure: ExpectationFailure, of testName: String) -> String {
        "\(testName): this failure was found after the test had finished, so it fails no test: \(failure.message)"
    }

    /// A `KeyPathValueExpectation` whose value became the wanted one again after it was fulfilled: `"KeyPath…(…) was
    /// fulfilled more than once: the value became 3 again after the expectation had already been fulfilled (values
    /// read: [0, 3, 1, 3]). Set assertForOverFulfill to false to allow it."`
    static func keyPathOverFulfilled(_ call: String, wanted: String, read: [String]) -> String {
        "\(call) was fulfilled more than once: the value became \(wanted) again after the expectation had already "
            + "been fulfilled (values read: [\(read.joined(separator: ", "))]). Set assertForOverFulfill to false to "
            + "allow it."
    }

    /// What an unfulfilled key-path expectation's description ends with, so that XCTest's timeout message names the
    /// values it read: `" (read [true, false] so far)"`.
    static func keyPathReadSoFar(_ read: [String]) -> String {
        " (read [\(read.joined(separator: ", "))] so far)"
    }

    /// The line at the end of an XCTest run that had strays: `"2 failures were found after their XCTest tests had
    /// finished and fail no test; see the warnings above."`
    static func straysSummary(count: Int) -> String {
        if count == 1 {
            return "1 failure was found after its XCTest test had finished and fails no test; see the warning above."
        }
        return "\(count) failures were found after their XCTest tests had finished and fail no test; see the warnings "
            + "above."
    }
}
