/// A marble diagram, parsed: the events it shows, tick by tick, counted from the tick its step starts on.
///
/// Every character other than a space is one tick, except a group, which is one tick however long it is:
///
/// | Character  | Meaning                                                           |
/// |------------|-------------------------------------------------------------------|
/// | `-`        | a tick with no event                                              |
/// | `a`, `7` … | a tick with one value: the one `values:` maps the character to    |
/// | `\|`       | a tick on which the publisher finishes                            |
/// | `#`        | a tick on which the publisher fails                               |
/// | `( … )`    | one tick with several events, in order: `(ab)`, `(c\|)`           |
/// | `300ms`    | 300 ticks with no event: a number and `ms`, `s` or `m`, between spaces |
/// | space      | nothing: spaces only line diagrams up                             |
///
/// The first character is the tick the step starts on (tick 0 of the diagram), so `"-a-b-(c|)"` expects `a` at
/// tick 1, `b` at tick 3, and `c` then the completion at tick 5; `"(ab)-c"` expects `a` and `b` at tick 0 and `c` at
/// tick 2 (RxJS counts a group's characters as ticks — `c` would be at tick 5 there; here a group is one tick, so a
/// diagram's ticks can be counted without counting parentheses). Nothing may follow `|` or `#` but the `)` that
/// closes their group.
struct MarbleDiagram: Sendable {
    /// One event of a diagram.
    enum Event: Equatable, Sendable {
        /// A value, by its key.
        case value(Character)
        /// `|`.
        case finished
        /// `#`.
        case failure

        /// The character the event is written with.
        var symbol: Character {
            switch self {
            case let .value(key): key
            case .finished: "|"
            case .failure: "#"
            }
        }
    }

    /// The events of each tick, from the diagram's tick 0; an empty tick is `-`.
    let ticks: [[Event]]
    /// Where each key is first used: its position (1-based, in characters of the text as written).
    let keyPositions: [(key: Character, position: Int)]

    /// The events in order, each with its tick.
    var events: [(tick: Int, event: Event)] {
        ticks.enumerated().flatMap { tick, events in events.map { (tick, $0) } }
    }

    /// The diagram's last tick, counted from its first: 5 for `"-a-b-(c|)"`.
    var lastTick: Int { ticks.count - 1 }

    /// Whether the diagram ends with a completion (`|` or `#`).
    var completes: Bool {
        let last = ticks.last?.last
        return last == .finished || last == .failure
    }

    /// Whether the diagram has a `#` (only its last event can be one).
    var fails: Bool { ticks.last?.last == .failure }

    /// The characters that are marble syntax, never keys.
    static let syntax: Set<Character> = ["-", "|", "#", "(", ")", " "]

    init(ticks: [[Event]], keyPositions: [(key: Character, position: Int)]) {
        self.ticks = ticks
        self.keyPositions = keyPositions
    }

    /// The most ticks a diagram may span, time progressions included.
    static let maxTicks = 1_000_000

    /// Parses `text`, or says what is wrong with it.
    init(parsing text: String) throws(SyntaxError) {
        let characters = Array(text)
        var ticks: [[Event]] = []
        var keyPositions: [(key: Character, position: Int)] = []
        var seenKeys: Set<Character> = []
        var group: (events: [Event], opened: Int)?
        var completion: (symbol: Character, position: Int)?
        var offset = 0
        while offset < characters.count {
            let character = characters[offset]
            let position = offset + 1
            offset += 1
            if character == " " { continue }
            if let completion, !(character == ")" && group != nil) {
                throw .afterCompletion(
                    character, at: position, completion: completion.symbol,
                    completedAt: completion.position)
            }
            if let progression = Self.timeProgression(in: characters, at: position - 1) {
                if group != nil { throw .progressionInGroup(at: position) }
                guard ticks.count + progression.ticks <= Self.maxTicks else {
                    throw .tooLong(at: position, maxTicks: Self.maxTicks)
                }
                ticks.append(contentsOf: repeatElement([], count: progression.ticks))
                offset = position - 1 + progression.length
                continue
            }
            let event: Event
            switch character {
            case "(":
                if let group { throw .nestedGroup(at: position, outerAt: group.opened) }
                group = ([], position)
                continue
            case ")":
                guard let open = group else { throw .unopenedGroupEnd(at: position) }
                if open.events.isEmpty { throw .emptyGroup(at: open.opened) }
                ticks.append(open.events)
                group = nil
                continue
            case "-":
                if group != nil { throw .quietTickInGroup(at: position) }
                ticks.append([])
                continue
            case "|":
                event = .finished
                completion = (character, position)
            case "#":
                event = .failure
                completion = (character, position)
            default:
                event = .value(character)
                if seenKeys.insert(character).inserted { keyPositions.append((character, position)) }
            }
            if group != nil {
                group?.events.append(event)
            } else {
                ticks.append([event])
            }
            if ticks.count > Self.maxTicks { throw .tooLong(at: position, maxTicks: Self.maxTicks) }
        }
        if let group { throw .unclosedGroup(at: group.opened) }
        if ticks.isEmpty { throw .empty }
        self.init(ticks: ticks, keyPositions: keyPositions)
    }

    /// A time progression starting at `start` — a number and a unit (`ms`, `s` or `m`) after a space, a `(` or the
    /// text's start, and before a space, the text's end or marble syntax, as `"300ms"` in `"a 300ms b"` — as the
    /// ticks it spans and the characters it takes; nil for anything else (`"3"` alone is a value's key).
    static func timeProgression(in characters: [Character], at start: Int) -> (ticks: Int, length: Int)? {
        guard characters[start].isASCII, characters[start].isNumber else { return nil }
        if start > 0, characters[start - 1] != " ", characters[start - 1] != "(" { return nil }
        var end = start
        while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
        let units: [(String, Int)] = [("ms", 1), ("s", 1_000), ("m", 60_000)]
        for (unit, ticksPerUnit) in units {
            let unitEnd = end + unit.count
            guard unitEnd <= characters.count, String(characters[end..<unitEnd]) == unit else { continue }
            guard unitEnd == characters.count || " -|#()".contains(characters[unitEnd]) else { continue }
            guard let amount = Int(String(characters[start..<end])) else { return (Int.max, unitEnd - start) }
            let (ticks, overflow) = amount.multipliedReportingOverflow(by: ticksPerUnit)
            return (overflow ? Int.max : ticks, unitEnd - start)
        }
        return nil
    }

    /// The diagram as text: one character per tick, a group in parentheses, no spaces.
    var text: String {
        ticks.map(Self.text(ofTick:)).joined()
    }

    /// One tick as text: `-`, `a`, or `(c|)`.
    static func text(ofTick events: [Event]) -> String {
        text(ofTick: events.map(\.symbol))
    }

    /// One tick of symbols as text: `-`, `a`, or `(c|)`.
    static func text(ofTick symbols: [Character]) -> String {
        switch symbols.count {
        case 0: "-"
        case 1: String(symbols[0])
        default: "(" + String(symbols) + ")"
        }
    }
}

extension MarbleDiagram {
    /// What is wrong with a diagram's text; positions count characters from 1, spaces included.
    enum SyntaxError: Error, Equatable, CustomStringConvertible {
        /// No tick at all (an empty or all-space text).
        case empty
        /// A `(` with no `)`.
        case unclosedGroup(at: Int)
        /// A `)` with no `(`.
        case unopenedGroupEnd(at: Int)
        /// A `(` inside a group.
        case nestedGroup(at: Int, outerAt: Int)
        /// `()`.
        case emptyGroup(at: Int)
        /// A `-` inside a group.
        case quietTickInGroup(at: Int)
        /// Something after `|` or `#`.
        case afterCompletion(Character, at: Int, completion: Character, completedAt: Int)
        /// A time progression (`300ms`) inside a group.
        case progressionInGroup(at: Int)
        /// More ticks than ``MarbleDiagram/maxTicks``, reached at a character.
        case tooLong(at: Int, maxTicks: Int)

    }
}
