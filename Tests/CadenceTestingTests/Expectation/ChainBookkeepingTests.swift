@testable import CadenceTesting
import Testing

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
