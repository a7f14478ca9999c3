/// Where in a test's source an expectation was written: the `#fileID`, `#filePath`, `#line` and `#column` of a call.
///
/// It maps onto both Swift Testing's `SourceLocation` and XCTest's `file:`/`line:` pair.
public struct SourceCodeLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's module-qualified name, `#fileID`: `"MyAppTests/SearchTests.swift"`.
    public let fileID: String
    /// The file's full path, `#filePath`.
    public let filePath: String
    /// The line, `#line`.
    public let line: Int
    /// The column, `#column`.
    public let column: Int
    /// `#filePath` as the static string XCTest's `XCTFail(_:file:line:)` takes.
    let staticFilePath: StaticString

    /// The location of the call whose defaults these are.
    public init(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.fileID = fileID.description
        self.filePath = filePath.description
        self.line = Int(line)
        self.column = Int(column)
        staticFilePath = filePath
    }

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
