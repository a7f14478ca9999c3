#if canImport(Runtime)
import Runtime
#endif

/// Where a task of a virtual-time session was created, for the reports of tasks that never let the test go idle.
///
/// Captured when the session first routes the task's job — which for a `Task { }`, a `Task.detached`, a child of
/// `async let` or of a task group happens on the creating thread, inside the runtime's `swift_task_create`, so the
/// stack still holds the line that created it. Only the return addresses are captured then (a few microseconds in an
/// optimised build); they are turned into a file and line, from the binary's debug information, only when a report
/// needs them. Needs the Swift runtime's `Runtime` module (Swift 6.2; macOS 26, iOS 26 on Apple's systems): elsewhere
/// nothing is captured and the reports say nothing of where.
struct TaskOrigin: Sendable {
    /// The captured `Backtrace`, type-erased for the platforms where the type is missing.
    private let backtrace: any Sendable

    /// The stack of the running thread, or nil where backtraces cannot be captured.
    static func capture() -> TaskOrigin? {
        #if canImport(Runtime)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            guard let images = Images.map,
                  let backtrace = try? Backtrace.capture(algorithm: .fast, limit: frameLimit, top: 0, images: images)
            else { return nil }
            return TaskOrigin(backtrace: backtrace)
        }
        #endif
        return nil
    }

    /// How many frames a capture keeps: the runtime's and Cadence's own frames above the creating line are about a
    /// dozen.
    private static let frameLimit = 32

    /// `"Loader.swift:12"`: the file and line of the first frame below the runtime's task creation that is code of
    /// the test's (not the Swift runtime's, the standard library's or Cadence's own); nil when the stack shows no task
    /// being created there (the task was first seen when it was resumed, not made) or has no debug information.
    var location: String? {
        #if canImport(Runtime)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *),
           let backtrace = backtrace as? Backtrace,
           let frames = backtrace.symbolicated(options: [.showSourceLocations, .showInlineFrames])?.frames {
            var creating = false
            for frame in frames {
                guard let symbol = frame.symbol else { continue }
                if !creating {
                    creating = symbol.rawName.hasPrefix("swift_task_create")
                    continue
                }
                guard let source = symbol.sourceLocation, source.line > 0,
                      Self.isTheTestsOwn(path: source.path) else { continue }
                return "\(Self.fileName(of: source.path)):\(source.line)"
            }
        }
        #endif
        return nil
    }

    /// Whether a source file is the test's: not compiler-generated, not the Swift runtime's or standard library's
    /// (whose sources are at the paths of the machine that built the toolchain), not one of Cadence's own.
    private static func isTheTestsOwn(path: String) -> Bool {
        guard path.hasSuffix(".swift"), !path.contains("<compiler-generated>") else { return false }
        if path.contains("/stdlib/public/") || path.contains("/swift/stdlib/") { return false }
        return !path.hasPrefix(cadenceSources)
    }

    /// The folder of Cadence's own sources (`…/Sources/`), from this file's path.
    private static let cadenceSources: String = {
        var path = "\(#filePath)"
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { return "\u{0}" }
            path = String(path[..<slash])
        }
        return path + "/"
    }()

    private static func fileName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}

#if canImport(Runtime)
/// The images (the binary and its libraries) loaded into the process, captured once: capturing them with every
/// backtrace would cost a hundred times the backtrace itself.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private enum Images {
    static let map: ImageMap? = ImageMap.capture()
}
#endif
