import CadenceTesting
import Testing

@Suite("recordingFailures")
struct RecordingFailuresTests {
    @Test("returns nothing when every expectation passes")
    func nothing() {
        let failures = recordingFailures {
            expect(Just(1)).toEmit(1).thenFinish()
        }
        #expect(failures.isEmpty)
    }

    @Test("returns each failure in the order reported, with its location, instead of failing the test")
    func collects() {
        let line = #line + 2
        let failures = recordingFailures {
            expect(Just(1)).toEmit(2)
            expect(Just(3)).toEmit(4)
        }
        #expect(failures.count == 2)
        #expect(failures.map(\.location.line) == [line, line + 1])
        #expect(failures.map(\.location.fileID) == [#fileID, #fileID])
        #expect(failures.map(\.location.filePath) == [#filePath, #filePath])
        #expect(failures.map { $0.message.prefix(16) } == ["toEmit(2) failed", "toEmit(4) failed"])
    }

    @Test("rethrows what its body throws")
    func rethrowsErrors() {
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            _ = try recordingFailures { throw Boom() }
        }
    }

    @Test("the reporter is bound only inside the body")
    func scoped() {
        var inside: FailureReporter?
        _ = recordingFailures { inside = FailureReporter.current }
        #expect(inside != nil)
        #expect(FailureReporter.current == nil)
    }

    @Test("the async form collects across suspensions and from child tasks")
    func async() async {
        let failures = await recordingFailures {
            expect(Just(1)).toEmit(2)
            await Task.yield()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { expect(Just(3)).toEmit(4) }
            }
        }
        #expect(failures.map { $0.message.prefix(16) } == ["toEmit(2) failed", "toEmit(4) failed"])
    }

    @Test("the async form rethrows what its body throws")
    func asyncRethrows() async {
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            _ = try await recordingFailures {
                await Task.yield()
                throw Boom()
            }
        }
    }

    @Test("a nested recordingFailures takes the failures of its own body")
    func nested() {
        var inner: [ExpectationFailure] = []
        let outer = recordingFailures {
            expect(Just(1)).toEmit(2)
            inner = recordingFailures { expect(Just(3)).toEmit(4) }
        }
        #expect(outer.map { $0.message.prefix(16) } == ["toEmit(2) failed"])
        #expect(inner.map { $0.message.prefix(16) } == ["toEmit(4) failed"])
    }
}
