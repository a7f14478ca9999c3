#if canImport(Testing)
import Testing
#endif

extension FailureReporter {
    #if canImport(Testing)
    /// A reporter that records each failure as an issue of the Swift Testing test running on this task, at the
    /// failure's source location.
    ///
    /// Swift Testing knows which test an issue belongs to only on that test's task (and the tasks it creates):
    /// `Issue.record` called on a plain thread, a `DispatchQueue` or a detached task is attributed to no test
    /// («unknown»). So this reporter remembers the test it was made in:
    ///
    /// - a failure reported on that test's task — a step, or a chain ending in the test's body — is recorded at
    ///   once, inside any `withKnownIssue` around it;
    /// - a failure reported anywhere else — a chain released on another thread, an event arriving late from another
    ///   thread — is handed to a task that the reporter created on the test's task, which records it in that test
    ///   (inside any `withKnownIssue` that was running when the reporter was made) as soon as it gets to run.
    ///
    /// A failure handed over that way is recorded shortly after it is found, not before the reporting call returns;
    /// a test that has already returned by then still gets it, reported after its result (a test that hands work to
    /// another thread should wait for that work before it returns). Made where no Swift Testing test is running, the
    /// reporter records every failure directly, wherever it is found.
    ///
    /// A failure that fails its test also records its `ExpectationFailure.attachments` — a chain's whole timeline,
    /// `record()`'s steps — as `Attachment`s of that test, named after it: `aJustEmits expect line 12 timeline.txt`.
    /// `swift test --attachments-path DIR` writes them to DIR. A known issue (inside `withKnownIssue`) records none;
    /// built with Swift 6.2, which cannot tell, every failure records its attachments.
    public static var swiftTesting: FailureReporter {
        swiftTesting(relayStartsAtOnce: true)
    }

    /// `swiftTesting`, with a relay that starts at once, or only when ``startRelay()`` is called on the test's task:
    /// until then a failure found elsewhere is recorded where it is found, attributed to no test.
    static func swiftTesting(relayStartsAtOnce: Bool) -> FailureReporter {
        let test = Test.current?.id
        let relay = test.map { test in
            relayStartsAtOnce
                ? FailureRelay(record: recordIssue)
                : FailureRelay(record: recordIssue, startsWhere: { Test.current?.id == test })
        }
        return FailureReporter(destination: .swiftTesting, attachment: relay) { failure in
            if let relay, Test.current?.id != test, relay.send(failure) { return }
            recordIssue(failure)
        }
    }

    /// Records `failure` as a Swift Testing issue, at its location, on the current task — and, when the issue fails
    /// the test, its attachments, each named after the test running here and its own name.
    private static func recordIssue(_ failure: ExpectationFailure) {
        let location = failure.location
        let sourceLocation = SourceLocation(
            fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
        )
        let issue = Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        #if compiler(>=6.3)
        guard issue.isFailure else { return }
        #else
        _ = issue
        #endif
        // The test running here: the one the reporter was made in, on its task or on its relay's, which inherits it.
        // Off any test (a failure recorded for no test) there is nothing to attach to.
        guard !failure.attachments.isEmpty, let test = Test.current else { return }
        let attachmentPrefix = AttachmentName.prefix(testName: test.name)
        for attachment in failure.attachments {
            Attachment.record(
                attachment.text, named: AttachmentName.file(attachmentPrefix + attachment.name),
                sourceLocation: sourceLocation
            )
        }
    }
    #endif
}

extension FailureReporter {
    /// For a Swift Testing reporter made on a test's task: the task that records failures found elsewhere.
    var relay: FailureRelay? { attachment as? FailureRelay }

    /// Starts this reporter's relay, if it has one that has not started and this is its test's task: what an
    /// expectation chain calls once a failure may be found away from the test's task.
    func startRelay() {
        relay?.start()
    }
}
