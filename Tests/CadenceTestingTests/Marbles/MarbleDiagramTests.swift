import Testing

@testable import CadenceTesting

@Suite("MarbleDiagram")
struct MarbleDiagramTests {
    typealias Diagram = MarbleDiagram

    func ticks(_ text: String) throws -> [[Diagram.Event]] {
        try Diagram(parsing: text).ticks
    }

    func problem(_ text: String) -> String? {
        do {
            _ = try Diagram(parsing: text)
            return nil
        } catch {
            return error.description
        }
    }

    // MARK: Ticks

    @Test("Every character is one tick: a dash is a tick with no event, a key a tick with its value")
    func oneCharacterOneTick() throws {
        #expect(try ticks("-a-b") == [[], [.value("a")], [], [.value("b")]])
        #expect(try ticks("a") == [[.value("a")]])
        #expect(try ticks("---") == [[], [], []])
    }

    @Test("| finishes and # fails, each on its own tick")
    func completions() throws {
        #expect(try ticks("--|") == [[], [], [.finished]])
        #expect(try ticks("a#") == [[.value("a")], [.failure]])
        #expect(try ticks("|") == [[.finished]])
    }

    @Test("A group is one tick, however many characters it has, and keeps its events in order")
    func groupIsOneTick() throws {
        #expect(try ticks("-a-b-(c|)") == [[], [.value("a")], [], [.value("b")], [], [.value("c"), .finished]])
        #expect(try ticks("(ab)-c") == [[.value("a"), .value("b")], [], [.value("c")]])
        #expect(try ticks("(ba)") == [[.value("b"), .value("a")]])
        #expect(try ticks("(a)") == [[.value("a")]])
        #expect(try ticks("(#)") == [[.failure]])
    }

    @Test("Spaces are ignored everywhere, inside groups too")
    func spacesIgnored() throws {
        #expect(try ticks(" -a - b ( c | ) ") == ticks("-a-b(c|)"))
        #expect(try ticks("a  b") == [[.value("a")], [.value("b")]])
    }

    @Test("A number and a unit between spaces is a time progression: that many ticks with no event")
    func timeProgression() throws {
        let debounced = try ticks("300ms a")
        #expect(debounced.count == 301)
        #expect(debounced[300] == [.value("a")])
        #expect(debounced.prefix(300).allSatisfy { $0.isEmpty })
        let between = try ticks("a 300ms b")
        #expect(between.count == 302)
        #expect(between[0] == [.value("a")] && between[301] == [.value("b")])
        let seconds = try ticks("-a 1s (b|)")
        #expect(seconds.count == 1_003)
        #expect(seconds[1] == [.value("a")] && seconds[1_002] == [.value("b"), .finished])
        #expect(try ticks("1m").count == 60_000)
        #expect(try ticks("a 2ms 1ms b") == [[.value("a")], [], [], [], [.value("b")]])
        #expect(try ticks("a 2ms|") == [[.value("a")], [], [], [.finished]])
        #expect(try ticks("(ab) 1ms-c") == [[.value("a"), .value("b")], [], [], [.value("c")]])
    }

    @Test("Without a unit, or not standing alone, digits are keys")
    func digitsStayKeys() throws {
        #expect(try ticks("3 a") == [[.value("3")], [.value("a")]])
        #expect(try ticks("a10ms") == [[.value("a")], [.value("1")], [.value("0")], [.value("m")], [.value("s")]])
        #expect(try ticks("5msa") == [[.value("5")], [.value("m")], [.value("s")], [.value("a")]])
        #expect(try ticks("-1s") == [[], [.value("1")], [.value("s")]])
    }

    @Test("Any other character is a key: digits, punctuation and non-ASCII characters too")
    func keys() throws {
        #expect(
            try ticks("1x.é🙂") == [
                [.value("1")], [.value("x")], [.value(".")], [.value("é")], [.value("🙂")],
            ])
    }

    @Test("The last tick, whether the diagram completes, and whether it fails")
    func summary() throws {
        let ticker = try Diagram(parsing: "-a-b-(c|)")
        #expect(ticker.lastTick == 5)
        #expect(ticker.completes)
        #expect(!ticker.fails)
        let open = try Diagram(parsing: "-a--")
        #expect(open.lastTick == 3)
        #expect(!open.completes)
        let failing = try Diagram(parsing: "(a#)")
        #expect(failing.lastTick == 0)
        #expect(failing.completes)
        #expect(failing.fails)
    }

    @Test("Events are listed in order with their ticks")
    func events() throws {
        let events = try Diagram(parsing: "a-(bc)|").events
        #expect(events.map(\.tick) == [0, 2, 2, 3])
        #expect(events.map(\.event) == [.value("a"), .value("b"), .value("c"), .finished])
    }

    @Test("Each key is listed once, where it is first used (positions count spaces, from 1)")
    func keyPositions() throws {
        let diagram = try Diagram(parsing: " a-b-a(cb)")
        #expect(diagram.keyPositions.map(\.key) == ["a", "b", "c"])
        #expect(diagram.keyPositions.map(\.position) == [2, 4, 8])
    }

    @Test("The text form drops spaces and writes a one-event group as its event")
    func text() throws {
        #expect(try Diagram(parsing: " -a - (b) (c|) ").text == "-a-b(c|)")
        #expect(Diagram.text(ofTick: [Character]()) == "-")
        #expect(Diagram.text(ofTick: ["a", "|"]) == "(a|)")
    }

    // MARK: Bad input

    @Test("An empty or all-space diagram")
    func empty() {
        let message =
            "the diagram is empty; write at least one tick, as \"-\" (a tick with no event) or \"|\" "
            + "(finished at once)"
        #expect(problem("") == message)
        #expect(problem("   ") == message)
        #expect(problem("") != nil)
    }

    @Test("A group that is never closed")
    func unclosedGroup() {
        #expect(problem("-a-(b") == "the group opened at character 4 is never closed; close it with \")\"")
    }

    @Test("A ) that closes no group")
    func unopenedGroupEnd() {
        #expect(problem("-a)") == "\")\" at character 3 closes no group")
        #expect(problem("(a))") == "\")\" at character 4 closes no group")
    }

    @Test("Groups do not nest")
    func nestedGroup() {
        #expect(
            problem("-(a(b))") == "\"(\" at character 4 opens a group inside the group opened at character 2; "
                + "groups do not nest")
    }

    @Test("An empty group")
    func emptyGroup() {
        #expect(
            problem("a( )") == "the group at character 2 is empty; a group lists the events of one tick, as "
                + "\"(ab)\" or \"(c|)\"")
    }

    @Test("A dash inside a group")
    func quietTickInGroup() {
        #expect(
            problem("(a-b)") == "\"-\" at character 3 is inside a group; a group is a single tick, so no tick can "
                + "pass inside it")
    }

    @Test("A time progression inside a group")
    func progressionInGroup() {
        #expect(
            problem("(a 300ms)") == "the time progression at character 4 is inside a group; a group is a single "
                + "tick, so no time can pass inside it")
    }

    @Test("A diagram longer than a million ticks")
    func tooLong() {
        #expect(problem("1000s") == nil)
        #expect(
            problem("a 1000s") == "the diagram runs past 1,000,000 ticks at character 3; state a longer wait "
                + "with a budget (within:) instead")
        #expect(
            problem("99999999999999999999m") == "the diagram runs past 1,000,000 ticks at character 1; state a "
                + "longer wait with a budget (within:) instead")
        #expect(
            problem("a 300ms |b") == "\"b\" at character 10 follows the completion \"|\" at character 9; a diagram "
                + "ends with its \"|\" or \"#\"")
    }

    @Test("Nothing follows a completion, not even a dash; a group's ) may")
    func afterCompletion() {
        #expect(
            problem("-a|b") == "\"b\" at character 4 follows the completion \"|\" at character 3; a diagram ends "
                + "with its \"|\" or \"#\"")
        #expect(
            problem("a# -") == "\"-\" at character 4 follows the completion \"#\" at character 2; a diagram ends "
                + "with its \"|\" or \"#\"")
        #expect(
            problem("(|a)") == "\"a\" at character 3 follows the completion \"|\" at character 2; a diagram ends "
                + "with its \"|\" or \"#\"")
        #expect(
            problem("(a|)(b)") == "\"(\" at character 5 follows the completion \"|\" at character 3; a diagram "
                + "ends with its \"|\" or \"#\"")
        #expect(
            problem("|#") == "\"#\" at character 2 follows the completion \"|\" at character 1; a diagram ends "
                + "with its \"|\" or \"#\"")
        #expect(problem("(a|) ") == nil)
    }
}
