import Foundation

/// Instructions per unit of work, counted with valgrind's callgrind (`--instructions`): the figure a loaded machine
/// cannot move. Each side runs in a process of its own under callgrind (`--profile NAME SIDE --size NAME=N`), once
/// at the counting size and once at size 1; the difference over N − 1 is the instructions per value, call or action,
/// with the process's start-up and the benchmark's set-up left out.
enum Instructions {
    /// The tools `--instructions` needs, or why it cannot run.
    struct Tools {
        let valgrind: URL
        /// A copy of this executable without its debug information (valgrind 3.19 refuses the DWARF Swift 6.3
        /// writes: "Possibly corrupted debuginfo file"); symbols are kept.
        let executable: URL
        let directory: URL
    }

    static func tools() -> Swift.Result<Tools, Options.Mistake> {
        guard let valgrind = Subprocess.onPath("valgrind") else {
            return .failure(Options.Mistake(message: "--instructions needs valgrind on the PATH; it is not there"))
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cadence-instructions-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let original = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let stripped = directory.appendingPathComponent("CadenceBenchmarks")
        if let strip = Subprocess.onPath("strip"),
            Subprocess.run(strip, ["--strip-debug", "-o", stripped.path, original.path], limit: 120) == .exited(0)
        {
            return .success(Tools(valgrind: valgrind, executable: stripped, directory: directory))
        }
        return .success(Tools(valgrind: valgrind, executable: original, directory: directory))
    }

    /// The instructions one run of `side` of `benchmark` at `size` executes, the process's start-up included; or why
    /// it could not be counted.
    static func total(_ benchmark: Benchmark, side: String, size: Int, tools: Tools) -> Swift.Result<Int, Failure> {
        let output = tools.directory.appendingPathComponent("\(benchmark.name)-\(side)-\(size).callgrind")
        let log = tools.directory.appendingPathComponent("\(benchmark.name)-\(side)-\(size).log")
        let outcome = Subprocess.run(
            tools.valgrind,
            [
                "--tool=callgrind", "--callgrind-out-file=\(output.path)", tools.executable.path,
                "--profile", benchmark.name, side, "--size", "\(benchmark.name)=\(size)",
            ],
            output: log, limit: 1_800
        )
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: log)
        }
        switch outcome {
        case .exited(0): break
        case let .exited(status): return .failure(Failure("valgrind exited with status \(status)"))
        case .timedOut: return .failure(Failure("valgrind ran past 30 minutes"))
        case let .notStarted(reason): return .failure(Failure("valgrind did not start: \(reason)"))
        }
        // callgrind's output has one `summary: N` line: the instructions of the whole run.
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") {
            if let count = Int(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces)) {
                return .success(count)
            }
        }
        return .failure(Failure("callgrind wrote no summary"))
    }

    /// Instructions per unit of `side` of `benchmark`, counted at `size` against size 1.
    static func perUnit(_ benchmark: Benchmark, side: String, size: Int, tools: Tools) -> Swift.Result<Double, Failure>
    {
        FileHandle.standardError.write(Data("… instructions: \(benchmark.name), \(side)\n".utf8))
        let counted = total(benchmark, side: side, size: size, tools: tools)
        let baseline = total(benchmark, side: side, size: 1, tools: tools)
        switch (counted, baseline) {
        case let (.success(counted), .success(baseline)):
            return .success(Double(counted - baseline) / Double(size - 1))
        case let (.failure(failure), _), let (_, .failure(failure)):
            return .failure(failure)
        }
    }

    /// Why a count failed.
    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// `"724"`, `"43,090"`, `"2.5"`: whole instructions above 100, one decimal below.
    static func format(_ count: Double) -> String {
        count >= 100 ? Harness.grouped(Int(count.rounded())) : Harness.rounded(count)
    }
}
