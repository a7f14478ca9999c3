import Testing

// Reaches `FailureReporter.destination` and `standardErrorText(for:)` with @testable, which debug builds allow.
#if DEBUG
@testable import CadenceTesting
#else
import CadenceTesting
#endif

/// The package's one reporting channel: misuse that the clock, the schedulers and the operators find goes through
/// `FailureReporter` as the expectations' failures do.
@Suite("FailureReporter as the one channel")
struct ReportingChannelTests {
    @Test("a clock made where a reporter is bound reports its misuse there, as a failure with no call site")
    func clockMisuseGoesToTheBoundReporter() {
        let failures = recordingFailures {
            VirtualClock().advance(by: .ticks(-1))
        }
        #expect(
            failures.map(\.message) == [
                "VirtualClock.advance(by:) was given a negative duration (-1 tick); time never goes backwards, so the "
                    + "clock stays at tick 0."
            ])
        #expect(failures.map(\.location.line) == [0])
    }

    @Test("misuse inside withVirtualTime is located at the withVirtualTime call")
    func sessionMisuseIsLocatedAtTheSession() {
        let line = #line + 2
        let failures = recordingFailures {
            withVirtualTime { clock in
                clock.advance(by: .ticks(-1))
            }
        }
        #expect(failures.map(\.location.line) == [line])
        #expect(failures.map(\.location.fileID) == [#fileID])
    }

    @Test("FailureReporter.current.report(_:) reports a message through the bound reporter")
    func theCurrentReporterReportsAMessage() {
        let failures = recordingFailures {
            FailureReporter.current.report("an interval must be positive")
        }
        #expect(failures.map(\.message) == ["an interval must be positive"])
    }

    #if DEBUG
    @Test("inside withVirtualTime, expectations pass over the session's reporter and pick the test framework's")
    func expectationsPassOverTheSessionReporter() {
        let destinations = withVirtualTime { _ in
            (FailureReporter.current?.destination, FailureReporter.resolved.destination)
        }
        #expect(destinations.0 == .session)
        #expect(destinations.1 == .swiftTesting)
    }

    @Test("standard error writes a report with no call site as Cadence: <message>")
    func standardErrorTextWithoutACallSite() {
        let failure = ExpectationFailure(message: "m", location: .unknown)
        #expect(FailureReporter.standardErrorText(for: failure) == "Cadence: m\n")
    }
    #endif
}
