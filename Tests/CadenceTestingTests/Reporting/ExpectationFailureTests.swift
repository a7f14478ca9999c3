import CadenceTesting
import Testing

@Suite("ExpectationFailure")
struct ExpectationFailureTests {
    @Test("it prints as location: message")
    func description() {
        let failure = ExpectationFailure(
            message: "toEmit(2) failed",
            location: SourceCodeLocation(fileID: "App/A.swift", filePath: "/src/App/A.swift", line: 12, column: 9)
        )
        #expect(failure.description == "App/A.swift:12:9: toEmit(2) failed")
    }
}
