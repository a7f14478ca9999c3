/// How failure messages name types: as written in the test, without module names or the runtime's notes on private
/// and local types.
enum TypeName {
    /// `"User"`, `"Box<Int>"`, `"Publishers.Map<Just<Int>, String>"`.
    static func describe(_ type: Any.Type) -> String {
        withoutModules(String(reflecting: type))
    }

    /// The type's name with its generic arguments left out, to qualify an enum case: `"Result"`,
    /// `"Subscribers.Completion"`.
    static func withoutGenericArguments(_ type: Any.Type) -> String {
        var result = ""
        var depth = 0
        for character in describe(type) {
            if character == "<" {
                depth += 1
            } else if character == ">" {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }

    /// The module a type is declared in: `"Swift"` for `Int`, `"Foundation"` for `NSError`.
    static func module(of type: Any.Type) -> Substring {
        module(named: String(reflecting: type))
    }

    /// ``module(of:)`` for the runtime's name of a type.
    static func module(named fullName: String) -> Substring {
        var name = Substring(fullName)
        if name.hasPrefix("(extension in "), let close = name.firstIndex(of: ":") {
            name = name[name.index(after: close)...]
        }
        return name.prefix { $0 != "." && $0 != "<" && $0 != "(" }
    }

    /// Modules whose types print their own description: the standard library, Foundation, Dispatch, Combine and
    /// Cadence.
    static let systemModules: Set<Substring> = [
        "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Foundation", "FoundationEssentials",
        "FoundationInternationalization", "CoreFoundation", "CoreGraphics", "Dispatch", "ObjectiveC", "Combine",
        "Cadence", "CadenceCombine", "CadenceSupport", "CadenceTesting",
    ]

    /// Whether `type` is declared in one of the ``systemModules``, or is an Objective-C class (whose name has no
    /// module: `NSError` on Apple platforms), or is a member of a Foundation or Dispatch class that Objective-C names
    /// differently (`__C.NSTimer.TimerPublisher` on Apple platforms).
    static func isSystem(_ type: Any.Type) -> Bool {
        isSystem(named: String(reflecting: type), isClass: type is AnyClass)
    }

    /// ``isSystem(_:)`` for the runtime's name of a type.
    static func isSystem(named name: String, isClass: Bool) -> Bool {
        if isClass, !name.contains(".") { return true }
        let module = module(named: name)
        if module == "__C" {
            let rest = withoutContexts(name).drop { $0 != "." }.dropFirst()
            return swiftNamesOfObjectiveCClasses[rest.prefix { $0 != "." && $0 != "<" }] != nil
        }
        return systemModules.contains(module)
    }

    /// The Swift names of the Foundation and Dispatch classes that Objective-C names differently. On Apple platforms
    /// the runtime names their members by the Objective-C class, in the module `__C`: `Timer.TimerPublisher` is
    /// `__C.NSTimer.TimerPublisher`, `DispatchQueue.SchedulerTimeType` is `__C.OS_dispatch_queue.SchedulerTimeType`.
    static let swiftNamesOfObjectiveCClasses: [Substring: String] = [
        "NSTimer": "Timer", "NSRunLoop": "RunLoop", "NSOperationQueue": "OperationQueue", "NSOperation": "Operation",
        "NSURLSession": "URLSession", "NSURLSessionTask": "URLSessionTask",
        "NSURLSessionDataTask": "URLSessionDataTask",
        "NSNotificationCenter": "NotificationCenter", "NSUserDefaults": "UserDefaults", "NSProcessInfo": "ProcessInfo",
        "NSThread": "Thread", "NSBundle": "Bundle", "NSFileManager": "FileManager",
        "NSJSONSerialization": "JSONSerialization", "NSURLCache": "URLCache",
        "OS_dispatch_queue": "DispatchQueue", "OS_dispatch_group": "DispatchGroup",
        "OS_dispatch_semaphore": "DispatchSemaphore", "OS_dispatch_source": "DispatchSource",
        "OS_dispatch_io": "DispatchIO", "OS_dispatch_workloop": "DispatchWorkloop",
    ]

    /// `"Cadence.Publishers.Map<Swift.Int>"` as `"Publishers.Map<Int>"`: the runtime's notes on private and local
    /// types dropped, then the first component of every qualified name (its module). A member of a generic type keeps
    /// its dot: `"Cadence.Published<Swift.Int>.Publisher"` is `"Published<Int>.Publisher"`. A class Objective-C
    /// names differently gets its Swift name back: `"__C.NSTimer.TimerPublisher"` is `"Timer.TimerPublisher"`.
    static func withoutModules(_ name: String) -> String {
        var result = ""
        var component = ""
        var atNameStart = true
        var droppedModule = false
        var afterObjectiveCModule = false
        func named(_ component: String) -> String {
            guard afterObjectiveCModule else { return component }
            afterObjectiveCModule = false
            return swiftNamesOfObjectiveCClasses[Substring(component)] ?? component
        }
        for character in withoutContexts(name) {
            if character.isLetter || character.isNumber || character == "_" {
                component.append(character)
            } else if character == ".", atNameStart, !droppedModule, !component.isEmpty {
                afterObjectiveCModule = component == "__C"
                component = ""
                droppedModule = true
            } else {
                result += named(component) + String(character)
                component = ""
                if character != "." {
                    atNameStart = true
                    droppedModule = false
                } else {
                    atNameStart = false
                }
            }
        }
        return result + named(component)
    }

    /// The name without `(extension in Module):` notes, and without `(unknown context at $…).` notes (a private or
    /// local type's scope, an address that changes from run to run) and the scopes between them and the module: a
    /// type declared in a method, `M.Suite.(unknown context at $1).Local`, is `M.Local`.
    static func withoutContexts(_ name: String) -> String {
        var name = Substring(name)
        var result = ""
        while let open = name.firstIndex(of: "(") {
            let rest = name[open...]
            let close = rest.firstIndex(of: ")")
            if let close, rest.hasPrefix("(unknown context at ") || rest.hasPrefix("(extension in ") {
                result += name[..<open]
                if rest.hasPrefix("(unknown context at ") {
                    // Keep the qualified name's module (`M.Suite.` → `M.`) for withoutModules to drop.
                    var path = ""
                    while let last = result.last, last.isLetter || last.isNumber || last == "_" || last == "." {
                        path.insert(result.removeLast(), at: path.startIndex)
                    }
                    if let dot = path.firstIndex(of: ".") { result += path[...dot] }
                }
                var after = name.index(after: close)
                if after < name.endIndex, name[after] == "." || name[after] == ":" { after = name.index(after: after) }
                name = name[after...]
            } else {
                result += name[...open]
                name = name[name.index(after: open)...]
            }
        }
        return result + name
    }
}
