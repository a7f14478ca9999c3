// The names of a failure's attachments are internal; @testable reaches them in debug builds.
#if DEBUG
@testable import CadenceTesting
import Testing

@Suite struct AttachmentNameTests {
    @Test func aTestsNameLosesItsParametersAndBackticks() {
        #expect(AttachmentName.prefix(testName: "aJustEmits()") == "aJustEmits ")
        #expect(AttachmentName.prefix(testName: "values(_:count:)") == "values ")
        #expect(AttachmentName.prefix(testName: "`a raw identifier`()") == "a raw identifier ")
        #expect(AttachmentName.prefix(testName: "") == "")
    }

    @Test func charactersAFileNameCannotHoldBecomeDashes() {
        #expect(
            AttachmentName.file("a/b\\c:d*e?f\"g<h>i|j\tk expect line 3 timeline.txt")
                == "a-b-c-d-e-f-g-h-i-j-k expect line 3 timeline.txt")
        #expect(AttachmentName.file("..hidden expect line 3 steps.txt") == "hidden expect line 3 steps.txt")
    }

    @Test func aLongNameIsCutAndKeepsItsExtension() {
        let name = AttachmentName.file(String(repeating: "x", count: 300) + " expect line 3 timeline.txt")
        #expect(name.count == AttachmentName.maxLength)
        #expect(name == String(repeating: "x", count: AttachmentName.maxLength - 4) + ".txt")
    }
}
#endif
