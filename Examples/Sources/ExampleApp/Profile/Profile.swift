/// A user's profile, as `GET /users/{id}` returns it.
public struct Profile: Codable, Equatable, Sendable {
    /// The user's identifier.
    public var id: Int
    /// The name the app shows.
    public var name: String
    /// The address the account's email goes to.
    public var email: String

    /// A profile with these fields.
    public init(id: Int, name: String, email: String) {
        self.id = id
        self.name = name
        self.email = email
    }
}
