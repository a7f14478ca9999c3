#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One side's timed runs of one benchmark.
struct Timing {
    /// Nanoseconds per run, one entry per timed run (the warm-up run is not among them).
    let runs: [Double]
    /// The checksum the runs returned; `nil` if they did not all return the same one.
    let checksum: Int?
    /// Every run's checksum, the warm-up run's first.
    var checksums: [Int] = []

    var median: Double {
        let sorted = runs.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// A tiny harness: one warm-up run thrown away, then timed runs of the whole workload.
enum Harness {
    /// A run longer than this is its own warm-up: if the warm-up run takes longer, it is the only run timed.
    static let longRun = 5e9

    static func measure(_ body: Body, size: Int, repetitions: Int) -> Timing {
        let clock = ContinuousClock()
        var runs: [Double] = []
        var checksums: [Int] = []
        for run in 0...repetitions {
            let start = clock.now
            let checksum = body.run(size)
            let elapsed = nanoseconds(start.duration(to: clock.now))
            checksums.append(checksum)
            if run == 0, elapsed > longRun {
                runs = [elapsed]
                break
            }
            if run > 0 { runs.append(elapsed) }
        }
        let distinct = Set(checksums)
        return Timing(runs: runs, checksum: distinct.count == 1 ? distinct.first : nil, checksums: checksums)
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// `"812 ns"`, `"2.31 µs"`, `"301 ms"`, `"1.52 s"`, `"4.3 min"`.
    static func format(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: "\(rounded(nanoseconds)) ns"
        case ..<1_000_000: "\(rounded(nanoseconds / 1_000)) µs"
        case ..<1_000_000_000: "\(rounded(nanoseconds / 1_000_000)) ms"
        case ..<120_000_000_000: "\(rounded(nanoseconds / 1_000_000_000)) s"
        case ..<7_200_000_000_000: "\(rounded(nanoseconds / 60_000_000_000)) min"
        default: "\(rounded(nanoseconds / 3_600_000_000_000)) h"
        }
    }

    /// Three significant digits at most: `2.31`, `23.1`, `231`, `2310`.
    static func rounded(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded() / scale
        var text = "\(scaled)"
        if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// `1000000` as `"1,000,000"`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return value < 0 ? "-" + text : text
    }

    /// Prints rows as an aligned text table, or as a Markdown table.
    static func printTable(header: [String], rows: [[String]], markdown: Bool) {
        if markdown {
            func line(_ cells: [String]) -> String {
                "| " + cells.map { $0.replacingAll("|", with: "\\|") }.joined(separator: " | ") + " |"
            }
            print(line(header))
            print("|" + header.map { _ in "---|" }.joined())
            for row in rows { print(line(row)) }
            return
        }
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < 2 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        print(line(header))
        print(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)))
        for row in rows { print(line(row)) }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}

/// This process's peak resident memory so far, in KiB: `VmHWM` in `/proc/self/status` on Linux (getrusage's
/// `ru_maxrss` would carry over the parent's peak through `posix_spawn`), `ru_maxrss` elsewhere.
func peakResidentKiB() -> Int? {
    #if os(Linux)
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).filter(\.isNumber))
        }
    }
    return nil
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / 1024
    #endif
}
