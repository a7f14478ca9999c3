/// Where in a test's source an expectation was written: the `#fileID`, `#filePath`, `#line` and `#column` of a call.
///
/// It maps onto both Swift Testing's `SourceLocation` and XCTest's `file:`/`line:` pair.
public struct SourceCodeLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's module-qualified name, `#fileID`: `"MyAppTests/SearchTests.swift"`.
    public var fileID: String { fileIDName.string }
    /// The file's full path, `#filePath`.
    public var filePath: String { filePathName.string }
    /// The line, `#line`.
    public let line: Int
    /// The column, `#column`.
    public let column: Int
    // The file names are kept as the static strings they were written as and made into Strings only when read
    // (for a failure): every step of every chain makes a location, and a passing chain never reads its file names.
    package let fileIDName: FileName
    package let filePathName: FileName
    /// `#filePath` as the static string XCTest's `XCTFail(_:file:line:)` takes.
    package let staticFilePath: StaticString

    /// A file name as written (`#fileID`, `#filePath`) or as a String (from a Swift Testing `SourceLocation`).
    package enum FileName: Sendable {
        case literal(StaticString)
        case string(String)

        package var string: String {
            switch self {
            case let .literal(name): name.description
            case let .string(name): name
            }
        }
    }

    /// The location of the call whose defaults these are.
    public init(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        fileIDName = .literal(fileID)
        filePathName = .literal(filePath)
        self.line = Int(line)
        self.column = Int(column)
        staticFilePath = filePath
    }

    /// A location made of names known only at run time (a Swift Testing `SourceLocation`): it has no static file path
    /// for XCTest, so it is only ever reported to Swift Testing or to a bound reporter.
    package init(fileID: String, filePath: String, line: Int, column: Int) {
        fileIDName = .string(fileID)
        filePathName = .string(filePath)
        self.line = line
        self.column = column
        staticFilePath = "(no static path)"
    }

    /// Where a report made with no call site to point at is located — a misuse the clock or an operator found on
    /// its own: `"Cadence"`, line 0.
    package static let unknown = SourceCodeLocation(fileID: "Cadence", filePath: "Cadence", line: 0, column: 0)

    /// Whether this is ``unknown``: a report with no call site.
    package var isUnknown: Bool { line == 0 && fileID == "Cadence" }

    /// `"MyAppTests/SearchTests.swift:12:9"`.
    public var description: String { "\(fileID):\(line):\(column)" }

    /// Whether two locations are the same place: file, line and column.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.fileID == rhs.fileID && lhs.filePath == rhs.filePath && lhs.line == rhs.line && lhs.column == rhs.column
    }

    /// Hashes the file path, line and column.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(filePath)
        hasher.combine(line)
        hasher.combine(column)
    }
}
