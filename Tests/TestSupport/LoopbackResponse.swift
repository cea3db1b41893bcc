/// A complete response produced by a ``LoopbackRoute/handler(_:)`` route.
///
/// The server adds `Date`, `Content-Length` and `Connection` unless `headers` already contains them.
/// A `Connection: close` header makes the server close the connection after the response; so does a
/// `Content-Length` that does not match `body` or any `Transfer-Encoding` header (the body is then sent verbatim).
public struct LoopbackResponse: Sendable {
    /// The status code, for example 200 or 404.
    public var status: Int
    /// Extra header fields, sent in this order after the server's own.
    public var headers: [(String, String)]
    /// The response body (not sent for HEAD requests or for 1xx, 204 and 304 statuses).
    public var body: [UInt8]

    /// Creates a response from raw body bytes.
    public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is `text` encoded as UTF-8; adds a `text/plain` content type unless
    /// `headers` has a `Content-Type`.
    public init(status: Int = 200, headers: [(String, String)] = [], text: String) {
        var headers = headers
        if !headers.contains(where: { HTTPText.lowercased($0.0) == "content-type" }) {
            headers.insert(("Content-Type", "text/plain; charset=utf-8"), at: 0)
        }
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }
}
