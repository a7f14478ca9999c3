#if canImport(XCTest)
import XCTest
#endif

extension FailureReporter {
    /// XCTest where it can be imported, else standard error: the reporter when no Swift Testing test is running.
    static var testFramework: FailureReporter {
        #if canImport(XCTest)
        .xcTest
        #else
        .standardError
        #endif
    }

    #if canImport(XCTest)
    /// Fails the running XCTest test with each failure, at the failure's file and line.
    ///
    /// XCTest tracks the running test for the whole process, so a failure reported on another thread while the test
    /// runs fails that test too.
    public static let xcTest = FailureReporter(destination: .xcTest) { failure in
        XCTFail(failure.message, file: failure.location.staticFilePath, line: UInt(failure.location.line))
    }
    #endif
}
