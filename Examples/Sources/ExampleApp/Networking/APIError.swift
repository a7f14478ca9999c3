/// Why a call to the API failed, in the terms the app's screens need — never a raw `URLError` or `DecodingError`.
public enum APIError: Error, Equatable, Sendable {
    /// The request's URL could not be built (a base URL without a scheme or host, say); nothing was sent.
    case invalidURL(String)
    /// The device has no connection.
    case offline
    /// The request failed in transport, with this `URLError.Code` raw value (a timeout, a refused connection…).
    case transport(code: Int)
    /// The request's body could not be encoded as JSON (a `Double.nan`, say); nothing was sent.
    case encoding
    /// The server answered with a status code outside 200–299.
    case badStatus(Int)
    /// The request finished without an answer: the data task completed without sending a response or an error.
    case noResponse
    /// The server answered 2xx, but the body is not the JSON the app expects.
    case decoding
}
