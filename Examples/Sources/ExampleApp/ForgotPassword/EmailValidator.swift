/// Decides whether text typed into an email field looks like an address worth sending to the server.
///
/// Plausible, not valid: one `@` with something before it, a domain with a dot that neither starts nor ends it, and
/// no spaces. The server has the last word.
public enum EmailValidator {
    /// Whether `text`, trimmed of surrounding spaces, is a plausible email address.
    public static func isPlausible(_ text: String) -> Bool {
        let address = text.trimmingSpaces
        guard !address.contains(where: \.isWhitespace) else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty else { return false }
        return domain.contains(".") && domain.first != "." && domain.last != "."
    }
}

extension String {
    /// The string without leading and trailing whitespace.
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
