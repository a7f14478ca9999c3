/// The file names of a failure's attachments: the test's name, then what the attachment is, in characters every file
/// system takes.
enum AttachmentName {
    /// `"aJustEmits "` for the test function `aJustEmits()`: its name without its parameters, and a space.
    static func prefix(testName: String) -> String {
        let name = testName.prefix { $0 != "(" }.filter { $0 != "`" }
        return name.isEmpty ? "" : name + " "
    }

    /// The most characters a name keeps: file systems take 255 bytes, and a test runner may add a suffix.
    static let maxLength = 200

    /// `name` with each character a file name should not hold (a path separator, a control character, one Windows
    /// forbids) replaced by `-`, no leading dot, and at most ``maxLength`` characters, its extension kept.
    static func file(_ name: String) -> String {
        let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        func isControl(_ character: Character) -> Bool {
            character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        let safe = String(
            name.map { forbidden.contains($0) || isControl($0) ? "-" : $0 }.drop { $0 == "." })
        guard safe.count > maxLength else { return safe }
        let fileExtension = safe.lastIndex(of: ".").map { String(safe[$0...]) } ?? ""
        return String(safe.prefix(maxLength - fileExtension.count)) + fileExtension
    }
}
