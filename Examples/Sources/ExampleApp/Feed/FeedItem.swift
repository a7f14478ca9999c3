/// One post of the feed.
public struct FeedItem: Equatable, Sendable, CustomStringConvertible {
    public let id: Int
    public let title: String

    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }

    public var description: String { "#\(id) \(title)" }
}
