/// How a chain names its publisher: the type with module names dropped, shortened to its outermost name when long.
enum PublisherName {
    /// `"PassthroughSubject<Int, Never>"`, `"Publishers.Map<Just<Int>, String>"`, or `"Publishers.Debounce<…>"` for a
    /// name over 60 characters.
    static func describe(_ type: Any.Type) -> String {
        let full = TypeName.describe(type)
        guard full.count > 60, let open = full.firstIndex(of: "<") else { return full }
        return full[..<open] + "<…>"
    }
}
