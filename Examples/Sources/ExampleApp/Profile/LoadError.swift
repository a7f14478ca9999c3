/// Why a load failed, in terms a screen can show.
public enum LoadError: Error, Equatable, Sendable {
    /// The API answered with an error.
    case api(APIError)
    /// Any other error the fetch threw, by its description.
    case other(String)

    /// `error` as a load error: an ``APIError`` keeps its case, anything else its description.
    public init(_ error: any Error) {
        if let error = error as? APIError {
            self = .api(error)
        } else {
            self = .other(String(describing: error))
        }
    }
}
