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
            if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }

    /// The module a type is declared in: `"Swift"` for `Int`, `"Foundation"` for `NSError`.
    static func module(of type: Any.Type) -> Substring {
        var name = Substring(String(reflecting: type))
        if name.hasPrefix("(extension in "), let close = name.firstIndex(of: ":") { name = name[name.index(after: close)...] }
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
    /// module: `NSError` on Apple platforms).
    static func isSystem(_ type: Any.Type) -> Bool {
        if type is AnyClass, !String(reflecting: type).contains(".") { return true }
        return systemModules.contains(module(of: type))
    }

    /// `"Cadence.Publishers.Map<Swift.Int>"` as `"Publishers.Map<Int>"`: the runtime's notes on private and local
    /// types dropped, then the first component of every qualified name (its module). A member of a generic type keeps
    /// its dot: `"Cadence.Published<Swift.Int>.Publisher"` is `"Published<Int>.Publisher"`.
    static func withoutModules(_ name: String) -> String {
        var result = ""
        var component = ""
        var atNameStart = true
        var droppedModule = false
        for character in withoutContexts(name) {
            if character.isLetter || character.isNumber || character == "_" {
                component.append(character)
            } else if character == ".", atNameStart, !droppedModule, !component.isEmpty {
                component = ""
                droppedModule = true
            } else {
                result += component + String(character)
                component = ""
                if character != "." {
                    atNameStart = true
                    droppedModule = false
                } else {
                    atNameStart = false
                }
            }
        }
        return result + component
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
