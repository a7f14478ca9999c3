import CadenceTesting
import Testing

@Suite("SourceCodeLocation")
struct SourceCodeLocationTests {
    @Test("by default it is the location of the call whose defaults it takes")
    func defaults() {
        let location = SourceCodeLocation()
        #expect(location.fileID == #fileID)
        #expect(location.filePath == #filePath)
        #expect(location.line == #line - 3)
        #expect(location.column == 42)
    }

    @Test("it prints as fileID:line:column")
    func description() {
        let location = SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 9)
        #expect(location.description == "App/A.swift:12:9")
    }

    @Test("two locations are equal when file, line and column are")
    func equality() {
        let location = SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 9)
        #expect(
            location == SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 9))
        #expect(
            location != SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 8))
        #expect(
            location != SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 11, column: 9))
        #expect(
            location != SourceCodeLocation(fileID: "App/B.swift", filePath: "/src/App/B.swift", line: 12, column: 9))
        #expect(Set([location, location]).count == 1)
    }
}
