import Dispatch
import Foundation

/// A child process run to its end, or stopped at a limit: every wait of the benchmarks is bounded.
enum Subprocess {
    /// How a child process ended.
    enum Outcome: Equatable {
        case exited(Int32)
        /// Still running at the limit: it was terminated.
        case timedOut
        /// It could not be started (the message says why).
        case notStarted(String)
    }

    /// Runs `executable` with `arguments` (and `environment` added to this process's), its output discarded unless
    /// `output` is given, and waits at most `limit` seconds for it.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], output: URL? = nil,
        limit: Double
    ) -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let output, FileManager.default.createFile(atPath: output.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: output)
        {
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do { try process.run() } catch { return .notStarted("\(error)") }
        guard ended.wait(timeout: .now() + limit) == .success else {
            process.terminate()
            ended.wait()
            return .timedOut
        }
        return .exited(process.terminationStatus)
    }

    /// The directory of this executable (where SwiftPM also puts the package's test binary).
    static var executableDirectory: URL {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return executable.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// `name` on the `PATH`, if it is there.
    static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// The `dsl-suite` benchmark's two sides: this package's test binary run on one suite of `SuiteBenchmarks`, as
/// `swift test` runs it (`--testing-library swift-testing --filter SUITE`), with `CADENCE_SUITE_TESTS` tests.
enum SuiteRuns {
    /// The test binary, if it was built (`swift build -c release --build-tests --package-path Benchmarks`); on Linux
    /// it is an executable beside `CadenceBenchmarks`.
    static let binary: URL? = {
        #if os(Linux)
        let binary = Subprocess.executableDirectory.appendingPathComponent("CadenceBenchmarksPackageTests.xctest")
        return FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
        #else
        return nil
        #endif
    }()

    /// Why the benchmark cannot run here, if it cannot.
    static var unavailable: String? {
        #if os(Linux)
        binary == nil
            ? "its test binary is not built (swift build -c release --build-tests --package-path Benchmarks)" : nil
        #else
        "it runs the test binary as SwiftPM builds it on Linux"
        #endif
    }

    /// Runs `suite` with `tests` tests; returns how many passed: all of them if the run exits with status 0, else none.
    static func run(suite: String, tests: Int) -> Int {
        guard let binary else { return 0 }
        let outcome = Subprocess.run(
            binary, ["--testing-library", "swift-testing", "--filter", suite],
            environment: ["CADENCE_SUITE_TESTS": "\(tests)"], limit: 600
        )
        return outcome == .exited(0) ? tests : 0
    }
}
