/// The error the step tests fail publishers with; it prints as its type and case, as a user's error enum would in a
/// debugger.
enum TestError: Error, Equatable, CustomStringConvertible {
    case offline
    case timeout

    var description: String {
        switch self {
        case .offline: "TestError.offline"
        case .timeout: "TestError.timeout"
        }
    }
}

/// A second error type, for failures of `any Error` that are not a `TestError`.
struct OtherError: Error, Equatable, CustomStringConvertible {
    var code: Int

    var description: String { "OtherError(code: \(code))" }
}
