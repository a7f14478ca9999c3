#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One benchmark's timings: nanoseconds per operation in each measured run.
struct Measurement {
    /// What was measured.
    let name: String
    /// How many operations each run timed.
    let operationsPerRun: Int
    /// Nanoseconds per operation, one entry per measured run.
    let nanosecondsPerOperation: [Double]

    /// The median of the runs.
    var median: Double {
        let sorted = nanosecondsPerOperation.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The fastest run.
    var min: Double { nanosecondsPerOperation.min() ?? .nan }
}

/// A tiny benchmark harness: warm-up runs that are thrown away, then timed runs of `operations` calls each.
enum Harness {
    /// Times `body`, called `operations` times per run, over `runs` runs after `warmUp` discarded runs.
    static func measure(
        _ name: String,
        operations: Int,
        runs: Int,
        warmUp: Int = 2,
        _ body: () -> Void
    ) -> Measurement {
        let clock = ContinuousClock()
        var results: [Double] = []
        for run in 0 ..< warmUp + runs {
            let elapsed = clock.measure {
                for _ in 0 ..< operations { body() }
            }
            if run >= warmUp { results.append(nanoseconds(elapsed) / Double(operations)) }
        }
        return Measurement(name: name, operationsPerRun: operations, nanosecondsPerOperation: results)
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// `"812 ns"`, `"2.31 µs"`, `"301 ms"`.
    static func format(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: return "\(rounded(nanoseconds)) ns"
        case ..<1_000_000: return "\(rounded(nanoseconds / 1_000)) µs"
        case ..<1_000_000_000: return "\(rounded(nanoseconds / 1_000_000)) ms"
        default: return "\(rounded(nanoseconds / 1_000_000_000)) s"
        }
    }

    /// Three significant digits at most: `2.31`, `23.1`, `231`.
    static func rounded(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        var scale = 1.0
        for _ in 0 ..< decimals { scale *= 10 }
        let scaled = (value * scale).rounded() / scale
        var text = "\(scaled)"
        if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Prints measurements as an aligned table.
    static func printTable(_ measurements: [Measurement]) {
        let header = ["benchmark", "median", "min", "runs × ops"]
        let rows = measurements.map {
            [$0.name, format($0.median), format($0.min), "\($0.nanosecondsPerOperation.count) × \($0.operationsPerRun)"]
        }
        let widths = (0 ..< header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "   ")
        }
        print(line(header))
        print(String(repeating: "-", count: widths.reduce(0, +) + 3 * (widths.count - 1)))
        for row in rows { print(line(row)) }
    }
}

/// Keeps the optimiser from discarding a value the benchmark computed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
