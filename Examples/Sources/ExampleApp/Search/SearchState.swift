/// What the search screen shows.
public enum SearchState: Equatable, Sendable {
    /// Nothing to search for: the query is empty or only spaces.
    case idle
    /// A request for this query is on its way.
    case searching(String)
    /// The matches for the latest query, possibly none.
    case results([String])
    /// The latest query's request failed; the next query searches again.
    case failed(SearchError)
}
