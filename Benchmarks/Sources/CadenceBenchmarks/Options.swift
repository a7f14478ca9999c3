/// The command line, parsed.
struct Options {
    var filter: [String] = []
    var scale = 1.0
    var sizes: [String: Int] = [:]
    var repetitions: Int?
    var markdown = false
    var memory = true
    /// `--instructions`: count each side's instructions per unit with callgrind, after the times.
    var instructions = false
    var list = false
    var help = false
    /// `--profile NAME SIDE`: run one side once, print nothing (for a profiler).
    var profile: (name: String, side: String)?
    /// `--child NAME SIDE SIZE` (hidden): run one side once, print its checksum and this process's peak memory.
    var child: (name: String, side: String, size: Int)?

    /// A mistake on the command line: the message is printed with the usage, and the run exits with status 2.
    struct Mistake: Error {
        let message: String
    }

    static let usage = """
        Usage: CadenceBenchmarks [options]

        Runs Cadence's benchmarks beside OpenCombine 0.14.0, combine-schedulers 1.2.2 and swift-clocks 1.1.1 and prints
        the median of each side's timed runs (after one warm-up run), their ratio, the issue's target and, where one
        exists, a hand-written loop doing the same work.

        Options:
          --filter NAMES        Run only these benchmarks or groups (comma-separated; see --list).
          --scale X             Multiply every size by X (e.g. 0.1 for a quick run).
          --size NAME=N         Set one benchmark's size (repeatable).
          --repetitions N       Timed runs per side (default: 5, or 3 to 7 as each benchmark sets).
          --markdown            Print the tables as Markdown.
          --no-memory           Skip measuring peak memory (child processes).
          --instructions        Also count each side's instructions per unit with valgrind's callgrind (a process per
                                side and size; minutes), the figure a loaded machine cannot move.
          --profile NAME SIDE   Run one side (cadence, peer or limit) once and print nothing, for a profiler.
          --list                List the benchmarks and groups.
          --help                Print this text.
        """

    static func parse(_ arguments: [String]) throws(Mistake) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for option: String) throws(Mistake) -> String {
            guard let value = rest.popFirst() else { throw Mistake(message: "\(option) needs a value") }
            return value
        }
        let names = Set(Benchmark.all.flatMap { [$0.name, $0.group] })
        while let argument = rest.popFirst() {
            switch argument {
            case "--filter":
                let wanted = try value(for: argument).split(separator: ",").map(String.init)
                for name in wanted where !names.contains(name) {
                    throw Mistake(message: "--filter: no benchmark or group is called '\(name)' (see --list)")
                }
                options.filter += wanted
            case "--scale":
                let text = try value(for: argument)
                guard let scale = Double(text), scale > 0, scale.isFinite else {
                    throw Mistake(message: "--scale takes a number greater than 0, not '\(text)'")
                }
                options.scale = scale
            case "--size":
                let text = try value(for: argument)
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, Benchmark.all.contains(where: { $0.name == parts[0] }) else {
                    throw Mistake(message: "--size takes NAME=N with a benchmark's name (see --list), not '\(text)'")
                }
                guard let size = Int(parts[1]), size > 0 else {
                    throw Mistake(message: "--size \(parts[0]) takes a whole number greater than 0, not '\(parts[1])'")
                }
                options.sizes[parts[0]] = size
            case "--repetitions":
                let text = try value(for: argument)
                guard let repetitions = Int(text), repetitions > 0 else {
                    throw Mistake(message: "--repetitions takes a whole number greater than 0, not '\(text)'")
                }
                options.repetitions = repetitions
            case "--markdown": options.markdown = true
            case "--no-memory": options.memory = false
            case "--instructions": options.instructions = true
            case "--list": options.list = true
            case "--help", "-h": options.help = true
            case "--profile":
                let name = try value(for: argument)
                let side = try value(for: argument)
                guard Benchmark.all.contains(where: { $0.name == name }) else {
                    throw Mistake(message: "--profile: no benchmark is called '\(name)' (see --list)")
                }
                guard ["cadence", "peer", "limit"].contains(side) else {
                    throw Mistake(message: "--profile \(name) takes a side: cadence, peer or limit, not '\(side)'")
                }
                options.profile = (name, side)
            case "--child":
                let name = try value(for: argument)
                let side = try value(for: argument)
                let text = try value(for: argument)
                guard let size = Int(text) else { throw Mistake(message: "--child takes NAME SIDE SIZE") }
                options.child = (name, side, size)
            default:
                throw Mistake(message: "unknown option '\(argument)'")
            }
        }
        return options
    }

    /// The benchmarks `--filter` selects (all of them without it), in the order they run.
    var selected: [Benchmark] {
        filter.isEmpty ? Benchmark.all : Benchmark.all.filter { filter.contains($0.name) || filter.contains($0.group) }
    }
}
