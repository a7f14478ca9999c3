/// The name the package's reporting channel had when it carried only misuse: ``FailureReporter``.
///
/// `IssueReporter.current.report("…")` still reports through ``FailureReporter/current`` (or standard error when
/// none is bound); new code names ``FailureReporter``.
public typealias IssueReporter = FailureReporter
