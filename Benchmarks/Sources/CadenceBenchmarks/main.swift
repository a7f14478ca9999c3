// Cadence's benchmarks, side by side with OpenCombine, combine-schedulers and swift-clocks in one run. Run optimised:
//
//     swift run -c release --package-path Benchmarks CadenceBenchmarks [--help]

import CadenceSide
import Foundation

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("CadenceBenchmarks: \(error.message)\n\n\(Options.usage)\n".utf8))
    exit(2)
}

if options.help {
    print(Options.usage)
    exit(0)
}

if options.list {
    for benchmark in Benchmark.all {
        let size = "\(Harness.grouped(benchmark.size(options))) \(benchmark.unit)"
        let columns = [
            benchmark.name.padded(to: 14), benchmark.group.padded(to: 12), size.padded(to: 24), benchmark.title,
        ]
        print(columns.joined(separator: " "))
    }
    exit(0)
}

/// The body `side` names, if the benchmark has one.
func body(of benchmark: Benchmark, side: String) -> Body? {
    switch side {
    case "cadence": benchmark.cadence
    case "peer": benchmark.peer
    case "limit": benchmark.limit
    default: nil
    }
}

// `--child NAME SIDE SIZE`: one run in a process of its own, for its peak memory ("idle" runs nothing).
if let child = options.child {
    var checksum = 0
    if child.name != "idle" {
        guard let benchmark = Benchmark.all.first(where: { $0.name == child.name }),
            let body = body(of: benchmark, side: child.side)
        else { exit(2) }
        checksum = body.run(child.size)
    }
    print("\(checksum) \(peakResidentKiB() ?? -1)")
    exit(0)
}

// `--profile NAME SIDE`: one run, nothing printed.
if let profile = options.profile {
    guard let benchmark = Benchmark.all.first(where: { $0.name == profile.name }),
        let body = body(of: benchmark, side: profile.side)
    else {
        FileHandle.standardError.write(Data("CadenceBenchmarks: \(profile.name) has no \(profile.side) side\n".utf8))
        exit(2)
    }
    let size = profile.side == "peer" ? benchmark.peerSize(benchmark.size(options)) : benchmark.size(options)
    _ = body.run(size)
    exit(0)
}

// The benchmarks measure passing tests.
if let failure = ExpectationBenchmarks.failure() ?? DebounceBenchmarks.failure() ?? LongStepBenchmarks.failure() {
    FileHandle.standardError.write(Data("CadenceBenchmarks: a benchmarked test fails:\n\(failure)\n".utf8))
    exit(1)
}

// The async benchmark's test must pass too (it runs on the main actor, which the main thread's run loop serves).
/// The async benchmark's failure, handed from the main actor's task to the top level (both on the main thread).
nonisolated(unsafe) var asyncFailure: String?
_ = Body.mainActor { _ in
    asyncFailure = await AsyncViewModelBenchmarks.failure()
    return 0
}.run(1)
if let asyncFailure {
    FileHandle.standardError.write(Data("CadenceBenchmarks: a benchmarked test fails:\n\(asyncFailure)\n".utf8))
    exit(1)
}

/// One benchmark's results.
struct Result {
    let benchmark: Benchmark
    let size: Int
    let peerSize: Int
    let cadence: Timing
    let peer: Timing?
    let limit: Timing?
    var errors: [String] = []

    /// Nanoseconds per run, or per call for a per-call benchmark.
    func shown(_ timing: Timing, size: Int) -> Double {
        benchmark.perCall ? timing.median / Double(size) : timing.median
    }

    /// The peer's time per operation over Cadence's.
    var ratio: Double? {
        guard let peer else { return nil }
        return (peer.median / Double(peerSize)) / (cadence.median / Double(size))
    }
}

// `--instructions` needs valgrind: a missing one is a mistake on the command line, found before anything runs.
var instructionTools: Instructions.Tools?
if options.instructions {
    switch Instructions.tools() {
    case let .success(tools): instructionTools = tools
    case let .failure(mistake):
        FileHandle.standardError.write(Data("CadenceBenchmarks: \(mistake.message)\n".utf8))
        exit(2)
    }
}

var results: [Result] = []
/// Benchmarks that could not run here, with the reason (printed under the table).
var notRun: [String] = []
for benchmark in options.selected {
    if benchmark.needsTestBinary, let reason = SuiteRuns.unavailable {
        notRun.append("\(benchmark.name): not run: \(reason)")
        continue
    }
    let size = benchmark.size(options)
    let peerSize = benchmark.peerSize(size)
    let repetitions = options.repetitions ?? benchmark.repetitions
    FileHandle.standardError.write(Data("… \(benchmark.name)\n".utf8))
    let cadence = Harness.measure(benchmark.cadence, size: size, repetitions: repetitions)
    var peer: Timing?
    if let body = benchmark.peer, peerSize <= benchmark.peerLimit ?? .max {
        let peerRepetitions = options.repetitions ?? benchmark.peerRepetitions ?? repetitions
        peer = Harness.measure(body, size: peerSize, repetitions: peerRepetitions)
    }
    let limit = benchmark.limit.map { Harness.measure($0, size: size, repetitions: repetitions) }
    var result = Result(
        benchmark: benchmark, size: size, peerSize: peerSize, cadence: cadence, peer: peer, limit: limit
    )
    // A benchmark whose sides disagree measures nothing: it is an error.
    let sides = [("Cadence", cadence, size), ("the peer", peer, peerSize), ("the hand-written loop", limit, size)]
    for (side, timing, sideSize) in sides {
        guard let timing else { continue }
        // A flaky peer passes a different number of tests from run to run: that is what the row counts, not an error.
        if benchmark.countsFlakes, side == "the peer" { continue }
        guard let checksum = timing.checksum else {
            result.errors.append("\(benchmark.name): \(side)'s runs returned different checksums")
            continue
        }
        if benchmark.countsPasses, checksum != sideSize {
            result.errors.append("\(benchmark.name): \(side) passed \(checksum) of \(sideSize) tests")
        }
    }
    if !benchmark.countsPasses, let expected = cadence.checksum {
        for (side, timing, _) in sides.dropFirst() {
            if let checksum = timing?.checksum, checksum != expected {
                result.errors.append("\(benchmark.name): \(side)'s checksum \(checksum) is not Cadence's \(expected)")
            }
        }
    }
    results.append(result)
}

// The table.
func ratioText(_ ratio: Double) -> String {
    func times(_ value: Double) -> String {
        value >= 1_000 ? Harness.grouped(Int(value.rounded())) + "×" : Harness.rounded(value) + "×"
    }
    return ratio >= 1 ? "\(times(ratio)) faster" : "\(times(1 / ratio)) slower"
}

func targetText(_ result: Result) -> String {
    switch result.benchmark.target {
    case .record: return "—"
    case let .faster(wanted):
        guard let ratio = result.ratio else { return "≥ \(Harness.rounded(wanted))×: not run" }
        return "≥ \(Harness.grouped(Int(wanted)))×: " + (ratio >= wanted ? "met" : "MISSED")
    case let .atMost(nanoseconds):
        let perCall = result.cadence.median / Double(result.size)
        return "≤ \(Harness.format(nanoseconds)): " + (perCall <= nanoseconds ? "met" : "MISSED")
    }
}

/// Where the peer was skipped: its time estimated from the same benchmark at a smaller size, as n².
@MainActor
func skippedText(_ result: Result) -> String {
    let measured = results.filter {
        $0.benchmark.title == result.benchmark.title && $0.peer != nil && $0.benchmark.name != result.benchmark.name
    }.max { $0.peerSize < $1.peerSize }
    guard let measured, let peer = measured.peer else { return "skipped (n²)" }
    let factor = Double(result.peerSize) / Double(measured.peerSize)
    return "skipped (n²: ≈ \(Harness.format(peer.median * factor * factor)))"
}

let rows: [[String]] = results.map { result in
    let benchmark = result.benchmark
    let suffix = benchmark.perCall ? "/call" : ""
    func time(_ timing: Timing?, size: Int) -> String {
        guard let timing else { return "—" }
        return Harness.format(result.shown(timing, size: size)) + suffix + (timing.runs.count == 1 ? " (1 run)" : "")
    }
    let peerTime: String =
        if benchmark.peer == nil { "—" } else if result.peer == nil { skippedText(result) } else {
            time(result.peer, size: result.peerSize)
        }
    return [
        benchmark.name, benchmark.title, "\(Harness.grouped(result.size)) \(benchmark.unit)",
        time(result.cadence, size: result.size), benchmark.peerName, peerTime,
        result.errors.isEmpty ? result.ratio.map(ratioText) ?? "—" : "ERROR: see below",
        result.errors.isEmpty ? targetText(result) : "—", time(result.limit, size: result.size),
    ]
}
Harness.printTable(
    header: [
        "benchmark", "workload", "size", "Cadence", "peer", "peer time", "Cadence vs peer", "target", "hand loop",
    ],
    rows: rows, markdown: options.markdown
)
for line in notRun { print(line) }
// Flaky runs, where a benchmark counts them: every run of the test, the warm-up's included.
for result in results where result.benchmark.countsFlakes {
    func flakes(_ timing: Timing?, size: Int) -> String {
        guard let timing else { return "not run" }
        let runs = timing.checksums.count * size
        let flaky = timing.checksums.reduce(0) { $0 + (size - $1) }
        let rate = runs == 0 ? 0 : Double(flaky) / Double(runs) * 100
        return "\(Harness.grouped(flaky)) of \(Harness.grouped(runs)) (\(Harness.rounded(rate)) %)"
    }
    let cadence = flakes(result.cadence, size: result.size)
    let peer = flakes(result.peer, size: result.peerSize)
    print(
        "\(result.benchmark.name): flaky runs (a trace that differs from the expected one): Cadence \(cadence), "
            + "\(result.benchmark.peerName) \(peer)")
}

let runCounts = results.flatMap { [$0.cadence, $0.peer, $0.limit].compactMap { $0?.runs.count } }.filter { $0 > 1 }
let repetitionsText =
    if let fewest = runCounts.min(), let most = runCounts.max() {
        fewest == most ? "\(fewest)" : "\(fewest) to \(most)"
    } else {
        "the"
    }
print(
    """

    Times: the median of \(repetitionsText) timed runs of the whole workload, after one warm-up run (per call where
    marked /call); a warm-up run over 5 s is the only run timed ("1 run"). "Cadence vs peer": the peer's time over
    Cadence's. "hand loop": the same work written by hand for this workload, no library (Limits.swift). Every side
    computed the same checksum (or passed every test) unless an error is printed below.
    """)

// Peak memory of the 1,000,000-value runs, each side in a process of its own.
func peakMemory(_ name: String, side: String, size: Int) -> (checksum: Int, kib: Int)? {
    let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    let output = FileManager.default.temporaryDirectory
        .appendingPathComponent("cadence-benchmarks-memory-\(ProcessInfo.processInfo.processIdentifier).txt")
    defer { try? FileManager.default.removeItem(at: output) }
    // Bounded, as every wait here: the largest child (a million scheduled actions) takes well under a second.
    let outcome = Subprocess.run(executable, ["--child", name, side, "\(size)"], output: output, limit: 600)
    guard outcome == .exited(0) else {
        let why =
            switch outcome {
            case .timedOut: "it was still running after 600 s"
            case let .exited(status): "it exited with status \(status)"
            case let .notStarted(reason): "it could not start: \(reason)"
            }
        FileHandle.standardError.write(Data("peak memory of \(name) (\(side)) not measured: \(why)\n".utf8))
        return nil
    }
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard fields.count == 2, fields[1] > 0 else { return nil }
    return (fields[0], fields[1])
}

func mebibytes(_ kib: Int) -> String { "\(Harness.rounded(Double(kib) / 1024)) MiB" }

let memoryResults = results.filter(\.benchmark.measuresMemory)
if options.memory, !memoryResults.isEmpty, let idle = peakMemory("idle", side: "cadence", size: 0) {
    print("")
    var memoryRows: [[String]] = []
    for index in results.indices where results[index].benchmark.measuresMemory {
        let result = results[index]
        let name = result.benchmark.name
        let cadence = peakMemory(name, side: "cadence", size: result.size)
        let peer = result.peer == nil ? nil : peakMemory(name, side: "peer", size: result.peerSize)
        let limit = result.limit == nil ? nil : peakMemory(name, side: "limit", size: result.size)
        for (side, measured, timing) in [
            ("Cadence", cadence, result.cadence), ("the peer", peer, result.peer),
            ("the hand-written loop", limit, result.limit),
        ] {
            if let measured, let checksum = timing?.checksum, measured.checksum != checksum {
                results[index].errors.append("\(name): \(side)'s checksum differs in its own process")
            }
        }
        memoryRows.append([
            name, "\(Harness.grouped(result.size)) \(result.benchmark.unit)",
            cadence.map { mebibytes($0.kib) } ?? "—",
            result.benchmark.peerName, peer.map { mebibytes($0.kib) } ?? (result.peer == nil ? "not run" : "—"),
            limit.map { mebibytes($0.kib) } ?? "—",
        ])
    }
    Harness.printTable(
        header: ["benchmark", "size", "Cadence peak RSS", "peer", "peer peak RSS", "hand loop peak RSS"],
        rows: memoryRows, markdown: options.markdown
    )
    print(
        """

        Peak resident memory (VmHWM) of one run, each side in a process of its own; the same process doing nothing
        peaks at \(mebibytes(idle.kib)).
        """)
}

// Instructions per unit, each side counted in a process of its own under callgrind.
if let tools = instructionTools {
    var instructionRows: [[String]] = []
    for index in results.indices {
        let benchmark = results[index].benchmark
        guard let size = benchmark.instructionSize(options) else { continue }
        func count(_ side: String, _ body: Body?) -> Double? {
            guard body != nil else { return nil }
            switch Instructions.perUnit(benchmark, side: side, size: size, tools: tools) {
            case let .success(count): return count
            case let .failure(failure):
                results[index].errors.append("\(benchmark.name): \(side)'s instructions: \(failure.message)")
                return nil
            }
        }
        let cadence = count("cadence", benchmark.cadence)
        // A peer that runs a different workload (the real-time debounce) or would take too long is not counted.
        let peerCounted = benchmark.peerSize(size) == size && size <= benchmark.peerInstructionLimit ?? .max
        let peer = peerCounted ? count("peer", benchmark.peer) : nil
        let limit = count("limit", benchmark.limit)
        let ratio = cadence.flatMap { cadence in peer.map { $0 / cadence } }
        var target = "—"
        if case let .faster(wanted) = benchmark.target, let ratio {
            target = "≥ \(Harness.grouped(Int(wanted)))×: " + (ratio >= wanted ? "met" : "MISSED")
        }
        let unit = benchmark.unit.hasSuffix("s") ? String(benchmark.unit.dropLast()) : benchmark.unit
        instructionRows.append([
            benchmark.name, "\(Harness.grouped(size)) \(benchmark.unit)", unit,
            cadence.map(Instructions.format) ?? "—", benchmark.peer == nil ? "—" : benchmark.peerName,
            peer.map(Instructions.format) ?? (benchmark.peer == nil ? "—" : "not counted"),
            ratio.map(ratioText) ?? "—", target, limit.map(Instructions.format) ?? "—",
        ])
    }
    try? FileManager.default.removeItem(at: tools.directory)
    print("")
    Harness.printTable(
        header: [
            "benchmark", "counted at", "instructions per", "Cadence", "peer", "peer instructions", "Cadence vs peer",
            "target", "hand loop",
        ],
        rows: instructionRows, markdown: options.markdown
    )
    print(
        """

        Instructions per unit (valgrind's callgrind): each side run once at the size shown and once at size 1, each in a
        process of its own; the difference over the size less 1, so the process's start-up is left out.
        """)
}

let errors = results.flatMap(\.errors)
for error in errors {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
}
exit(errors.isEmpty ? 0 : 1)

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
