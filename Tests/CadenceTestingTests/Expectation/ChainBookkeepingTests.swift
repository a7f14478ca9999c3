import Testing

@testable import CadenceTesting

/// The chain's bookkeeping types that replaced generic or hashed storage for speed keep their meaning.
@Suite("Chain bookkeeping")
struct ChainBookkeepingTests {
    @Test("ConsumedEvents answers nil for events no step consumed, before, between and after consumed ones")
    func consumedEventsWithGaps() {
        var consumed = ConsumedEvents()
        #expect(consumed[0] == nil)
        consumed[1] = 0
        consumed[4] = 2
        #expect(consumed[0] == nil)
        #expect(consumed[1] == 0)
        #expect(consumed[2] == nil)
        #expect(consumed[4] == 2)
        #expect(consumed[9] == nil)
        #expect(consumed.pairs.map(\.event) == [1, 4])
        #expect(consumed.pairs.map(\.step) == [0, 2])
    }

    @Test("ConsumedEvents grows one event at a time, and from far past its end, keeping every mark")
    func consumedEventsGrowing() {
        var consumed = ConsumedEvents()
        for event in 0..<10 { consumed[event] = event % 3 }
        consumed[40] = 7
        #expect((0..<10).map { consumed[$0] } == (0..<10).map { $0 % 3 })
        #expect((10..<40).allSatisfy { consumed[$0] == nil })
        #expect(consumed[40] == 7)
        #expect(consumed.pairs.count == 11)
    }

    @Test("The recorder's end-of-chain check: completed, and every event but a contract-abiding subscription consumed")
    func recorderCompletedAndConsumed() {
        let recorder = EventRecorder<Int, Never>(clock: nil, demand: .unlimited)
        Just(1).subscribe(recorder)
        var consumed = ConsumedEvents()
        #expect(!recorder.hasCompleted(consumingAllBut: consumed)) // the value and the finish are not consumed
        consumed[1] = 0
        #expect(!recorder.hasCompleted(consumingAllBut: consumed)) // the finish is not
        consumed[2] = 1
        #expect(recorder.hasCompleted(consumingAllBut: consumed)) // the subscription need not be
    }

    @Test(
        "The recorder's end-of-chain check counts a second subscription, and an event before the first, as reportable")
    func recorderReportableEvents() {
        let twice = EventRecorder<Int, Never>(clock: nil, demand: .unlimited)
        ScriptedPublisher<Int, Never>.subscribingTwice(then: [1]).subscribe(twice)
        var consumed = ConsumedEvents()
        // subscription, second subscription, 1, finished
        consumed[2] = 0
        consumed[3] = 1
        #expect(!twice.hasCompleted(consumingAllBut: consumed))
        consumed[1] = 0
        #expect(twice.hasCompleted(consumingAllBut: consumed))

        let early = EventRecorder<Int, Never>(clock: nil, demand: .unlimited)
        ScriptedPublisher<Int, Never>([(nil, .value(1)), (nil, .subscription), (nil, .completion(.finished))])
            .subscribe(early)
        var consumedLate = ConsumedEvents()
        consumedLate[2] = 0
        #expect(!early.hasCompleted(consumingAllBut: consumedLate)) // the value before the subscription
        consumedLate[0] = 0
        #expect(early.hasCompleted(consumingAllBut: consumedLate))
    }

    @Test("The recorder's end-of-chain check is false while the publisher has not completed, or after a cancel")
    func recorderNotCompleted() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = EventRecorder<Int, Never>(clock: nil, demand: .unlimited)
        subject.subscribe(recorder)
        #expect(!recorder.hasCompleted(consumingAllBut: ConsumedEvents()))
        recorder.cancel()
        #expect(!recorder.hasCompleted(consumingAllBut: ConsumedEvents()))

        let never = EventRecorder<Int, Never>(clock: nil, demand: .unlimited)
        #expect(!never.hasCompleted(consumingAllBut: ConsumedEvents())) // nothing subscribed
    }

    @Test("a location made from a Swift Testing SourceLocation reads back its file names")
    func locationFromSourceLocation() {
        let source = SourceLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 9)
        let location = SourceCodeLocation(source)
        #expect(location.fileID == "App/A.swift")
        #expect(location.filePath == "/src/App/A.swift")
        let written = SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 9)
        #expect(location == written)
        #expect(location.description == "App/A.swift:12:9")
    }
}
